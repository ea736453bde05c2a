package report

import (
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxOverlaid is the most configs under test a line chart draws over
// each other; past it cpu_per_request.png and throughput.png become small
// multiples, one panel per config beside the baseline, since a dozen
// lines told apart only by colour cannot be read.
const maxOverlaid = 8

// panelBaseColor is the baseline's colour in every panel.
var panelBaseColor = color.RGBA{150, 150, 150, 0xff}

// newPanel returns one small-multiple plot, titled with its config.
func newPanel(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(8)
	p.Title.Padding = vg.Points(2)
	p.X.Tick.Label.Font.Size = vg.Points(7)
	p.Y.Tick.Label.Font.Size = vg.Points(7)
	p.X.Padding, p.Y.Padding = vg.Points(2), vg.Points(2)
	g := plotter.NewGrid()
	g.Horizontal.Color = gridColor
	g.Vertical.Color = gridColor
	p.Add(g)
	return p
}

// panelSeries draws, for each config under test, one panel with the
// baseline in grey under the config in its own style; draw adds one
// series' data to a panel. Every panel gets the same y range, from zero.
// The legend explains the two styles; each panel's title names its
// config.
func panelSeries(ch *chart, ss []series, lv []int, draw func(p *chart, sr series) error) error {
	var base *series
	for i := range ss {
		if ss[i].Baseline {
			base = &ss[i]
		}
	}
	top := 0.0
	for _, sr := range candidates(ss) {
		p := &chart{p: newPanel(sr.Legend)}
		if base != nil {
			grey := *base
			grey.Color, grey.Baseline = panelBaseColor, false
			if err := draw(p, grey); err != nil {
				return err
			}
		}
		if err := draw(p, sr); err != nil {
			return err
		}
		concAxis(p.p, lv)
		top = math.Max(top, p.p.Y.Max)
		ch.panels = append(ch.panels, p.p)
	}
	if top <= 0 || math.IsInf(top, 0) {
		top = 1
	}
	for _, p := range ch.panels {
		p.Y.Min, p.Y.Max = 0, top*1.06
		p.Y.Tick.Marker = humanTicks{}
	}
	if base != nil {
		ch.addKey("grey, in every panel: the baseline, "+strings.TrimSuffix(base.Legend, " (baseline)"), &plotter.Line{LineStyle: draw2(panelBaseColor)})
	}
	ch.addKey("coloured: the config named above the panel", styleKey([]vg.Length{}, glyphRadius)...)
	return nil
}

// draw2 is a plain line style of colour c (a legend thumbnail).
func draw2(c color.Color) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(lineWidth)}
}

// panelPad is the space between two panels side by side.
var panelPad = vg.Points(6)

// panelGrid is the grid drawPanels lays n panels out in: a little wider
// than square.
func panelGrid(n int) (cols, rows int) {
	cols = int(math.Ceil(math.Sqrt(float64(n) * 1.6)))
	return cols, (n + cols - 1) / cols
}

// drawPanels draws the chart's title across the top of dc and its panels
// in a grid below it.
func (c *chart) drawPanels(dc draw.Canvas) {
	st := c.p.Title.TextStyle
	st.XAlign, st.YAlign = draw.XCenter, draw.YTop
	th := st.Height(c.p.Title.Text) + c.p.Title.Padding
	dc.FillText(st, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y}, c.p.Title.Text)
	body := draw.Crop(dc, 0, 0, 0, -th)
	cols, rows := panelGrid(len(c.panels))
	t := draw.Tiles{Rows: rows, Cols: cols, PadX: panelPad, PadY: vg.Points(4)}
	for i, p := range c.panels {
		tile := t.At(body, i%cols, i/cols)
		p.Title.Text = wrapWords(p.Title.TextStyle, p.Title.Text, tile.Max.X-tile.Min.X)
		p.Draw(tile)
	}
}

// wrapWords breaks s at spaces into lines no wider than w in style st;
// a word wider than w alone stays on its own line.
func wrapWords(st text.Style, s string, w vg.Length) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case st.Width(line+" "+word) <= w:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
