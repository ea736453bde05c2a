package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Every chart is drawn on the same fixed canvas: 10 × 6 in at 96 dpi,
// i.e. chartWidthPx × chartHeightPx pixels.
const (
	chartWidth    = 10 * vg.Inch
	chartHeight   = 6 * vg.Inch
	chartDPI      = 96
	chartWidthPx  = 960
	chartHeightPx = 576
)

var (
	gridColor = color.Gray{Y: 225}
	keyColor  = color.RGBA{90, 90, 90, 0xff} // legend thumbnails that explain a line style
	dashed    = []vg.Length{vg.Points(6), vg.Points(3)}
	dotted    = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
)

// legendEntry is one legend line: text and the thumbnails drawn beside it.
// A key entry explains a drawing style rather than naming a config.
type legendEntry struct {
	text   string
	thumbs []plot.Thumbnailer
	key    bool
}

// chart is a plot plus a legend drawn below it, outside the data area:
// the configs first, in as many columns as fit, then the keys to the
// drawing styles, in as many columns as theirs fit.
type chart struct {
	p      *plot.Plot
	panels []*plot.Plot // small multiples, drawn instead of p (which gives the title)
	legend []legendEntry
}

// newChart returns a chart with the house style: title, axis labels and
// light grid lines.
func newChart(title, xlabel, ylabel string) *chart {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Label.TextStyle.Font.Size = vg.Points(11)
	p.Y.Label.TextStyle.Font.Size = vg.Points(11)
	p.X.Tick.Label.Font.Size = vg.Points(10)
	p.Y.Tick.Label.Font.Size = vg.Points(10)
	g := plotter.NewGrid()
	g.Horizontal.Color = gridColor
	g.Vertical.Color = gridColor
	p.Add(g)
	return &chart{p: p}
}

// add appends a legend entry naming a config (or another data series).
func (c *chart) add(text string, thumbs ...plot.Thumbnailer) {
	c.legend = append(c.legend, legendEntry{text: text, thumbs: thumbs})
}

// addKey appends a legend entry that explains a drawing style.
func (c *chart) addKey(text string, thumbs ...plot.Thumbnailer) {
	c.legend = append(c.legend, legendEntry{text: text, thumbs: thumbs, key: true})
}

// png renders the chart.
func (c *chart) png() ([]byte, error) {
	img := vgimg.NewWith(vgimg.UseWH(chartWidth, chartHeight), vgimg.UseDPI(chartDPI))
	dc := draw.New(img)
	m := vg.Points(10)
	dc = draw.Crop(dc, m, -m, m/2, -m)
	legH := c.drawLegend(dc)
	if legH > 0 {
		legH += vg.Points(8)
	}
	if len(c.panels) > 0 {
		c.drawPanels(draw.Crop(dc, 0, 0, legH, 0))
	} else {
		c.p.Draw(draw.Crop(dc, 0, 0, legH, 0))
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("encoding PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// drawLegend draws the legend along the bottom of dc, the configs' block
// above the keys' block, and returns the height it used.
func (c *chart) drawLegend(dc draw.Canvas) vg.Length {
	if len(c.legend) == 0 {
		return 0
	}
	proto := plot.NewLegend()
	proto.TextStyle.Font.Size = vg.Points(10)
	proto.ThumbnailWidth = vg.Points(24)
	proto.Padding = vg.Points(3)
	if len(c.legend) > 10 {
		proto.TextStyle.Font.Size = vg.Points(9)
		proto.Padding = vg.Points(1.5)
	}
	proto.Left, proto.Top = true, true
	var series, keys []legendEntry
	for _, e := range c.legend {
		if e.key {
			keys = append(keys, e)
		} else {
			series = append(series, e)
		}
	}
	// The keys' block is drawn first, at the bottom; the configs' above it.
	height := legendBlock(dc, proto, keys)
	if height > 0 && len(series) > 0 {
		height += proto.Padding
	}
	return height + legendBlock(draw.Crop(dc, 0, 0, height, 0), proto, series)
}

// legendBlock draws entries in columns as wide as the widest entry, as
// many as fit, along the bottom of dc, and returns the height it used.
func legendBlock(dc draw.Canvas, proto plot.Legend, entries []legendEntry) vg.Length {
	if len(entries) == 0 {
		return 0
	}
	em := proto.TextStyle.Width(" ")
	var widest vg.Length
	for _, e := range entries {
		if w := proto.TextStyle.Width(e.text); w > widest {
			widest = w
		}
	}
	colW := proto.ThumbnailWidth + em + widest + vg.Points(18)
	avail := dc.Max.X - dc.Min.X - vg.Points(40)
	cols := int(avail / colW)
	cols = max(1, min(cols, len(entries)))
	rows := (len(entries) + cols - 1) / cols
	// plot.Legend steps down by its tallest entry plus Padding, after a
	// descent at the top.
	var enth vg.Length
	for _, e := range entries {
		enth = max(enth, proto.TextStyle.Rectangle(e.text).Max.Y)
	}
	descent := proto.TextStyle.FontExtents().Descent
	height := vg.Length(rows)*(enth+proto.Padding) - proto.Padding + descent + vg.Points(2)

	area := draw.Crop(dc, vg.Points(40), 0, 0, height-(dc.Max.Y-dc.Min.Y))
	for k := 0; k < cols; k++ {
		l := proto
		for r := 0; r < rows; r++ {
			i := k*rows + r
			if i >= len(entries) {
				break
			}
			l.Add(entries[i].text, entries[i].thumbs...)
		}
		col := draw.Crop(area, vg.Length(k)*colW, 0, 0, 0)
		col.Max.X = col.Min.X + colW
		l.Draw(col)
	}
	return height
}

// hline is a horizontal line across the whole data area at Y.
type hline struct {
	Y float64
	draw.LineStyle
}

// Plot implements plot.Plotter.
func (h hline) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(h.Y)
	if y < c.Min.Y || y > c.Max.Y {
		return
	}
	c.StrokeLine2(h.LineStyle, c.Min.X, y, c.Max.X, y)
}

// Thumbnail implements plot.Thumbnailer.
func (h hline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(h.LineStyle, c.Min.X, y, c.Max.X, y)
}

// line returns a line through pts.
func line(pts plotter.XYs, col color.Color, width vg.Length, dashes []vg.Length) (*plotter.Line, error) {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	l.Color = col
	l.Width = width
	l.Dashes = dashes
	return l, nil
}

// points returns a scatter of glyphs at pts.
func points(pts plotter.XYs, col color.Color, g draw.GlyphDrawer, r vg.Length) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	s.Color = col
	s.Shape = g
	s.Radius = r
	return s, nil
}

// concAxis makes the x axis a log2 concurrency axis with a tick at every
// measured level, padded so the outermost points are not on the frame.
func concAxis(p *plot.Plot, lv []int) {
	ticks := make([]plot.Tick, len(lv))
	for i, c := range lv {
		ticks[i] = plot.Tick{Value: float64(c), Label: strconv.Itoa(c)}
	}
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	lo, hi := float64(lv[0]), float64(lv[len(lv)-1])
	pad := math.Max(math.Pow(hi/lo, 0.06), 1.25)
	p.X.Min, p.X.Max = lo/pad, hi*pad
}

// humanTicks are linear ticks at 1-2-2.5-5 steps, aiming at about six
// labelled ticks, with large values written compactly (12k, 1.5M).
type humanTicks struct{}

// Ticks implements plot.Ticker.
func (humanTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	raw := (max - min) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ts []plot.Tick
	half := step / 2
	for v := math.Ceil(min/half) * half; v <= max+half*1e-9; v += half {
		x := math.Round(v/half) * half
		if math.Abs(x) < half*1e-9 {
			x = 0
		}
		t := plot.Tick{Value: x}
		if math.Abs(math.Remainder(x, step)) < half*1e-6 {
			t.Label = human(x)
		}
		ts = append(ts, t)
	}
	return ts
}

// logTicks are 1-2-5 ticks for a log axis.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	if min <= 0 || max <= min {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	for e := math.Floor(math.Log10(min)) - 1; e <= math.Ceil(math.Log10(max)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v >= min && v <= max {
				ts = append(ts, plot.Tick{Value: v, Label: human(v)})
			}
		}
	}
	if len(ts) < 2 {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	return ts
}

// human formats a tick value compactly, negative values with a
// typographic minus.
func human(v float64) string {
	if v < 0 {
		return "−" + human(-v)
	}
	a := v
	switch {
	case a >= 1e6:
		return trimZeros(strconv.FormatFloat(v/1e6, 'f', 2, 64)) + "M"
	case a >= 1e4:
		return trimZeros(strconv.FormatFloat(v/1e3, 'f', 1, 64)) + "k"
	case a == 0:
		return "0"
	case a < 0.01:
		return strconv.FormatFloat(v, 'g', 2, 64)
	default:
		return trimZeros(strconv.FormatFloat(v, 'f', 3, 64))
	}
}

// trimZeros drops trailing fractional zeros: "2.50" → "2.5", "3.000" → "3".
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// textStyle is a plain text style of the given size, colour and alignment.
func textStyle(size float64, col color.Color, x draw.XAlignment, y draw.YAlignment) text.Style {
	return text.Style{
		Color:   col,
		Font:    font.From(plot.DefaultFont, vg.Points(size)),
		XAlign:  x,
		YAlign:  y,
		Handler: plot.DefaultTextHandler,
	}
}
