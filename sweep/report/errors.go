package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// errorsChart is errors.png: error rate (5xx + transport errors) in % of
// requests against concurrency, the cliff threshold as a dotted line and
// each config's cliff ringed and labelled.
func errorsChart(s sweep.Summary, ss []series, lv []int) (*chart, error) {
	title := fmt.Sprintf("%s: error rate (5xx + transport errors, %% of requests)", s.Name)
	anyErr := false
	for _, sr := range ss {
		anyErr = anyErr || hasErrors(sr)
	}
	if !anyErr {
		title += ": no errors at any level"
	}
	ch := newChart(title, concLabel, "error rate (% of requests)")
	ymax := 0.0
	for _, sr := range ss {
		pts := sr.xy(0, func(c sweep.Cell) (float64, bool) { return 100 * c.ErrorRate, true })
		for _, p := range pts {
			ymax = math.Max(ymax, p.Y)
		}
		thumbs, err := addSeries(ch, sr, pts, []vg.Length{}, glyphRadius)
		if err != nil {
			return nil, err
		}
		if thumbs == nil {
			thumbs = legendThumbs(sr)
		}
		ch.add(sr.Legend, thumbs...)
	}
	thr := 100 * s.Plan.CliffRate
	ymax = math.Max(ymax, math.Max(1, 2*thr))
	if thr > 0 {
		tl := hline{Y: thr, LineStyle: draw.LineStyle{Color: keyColor, Width: vg.Points(1), Dashes: dotted}}
		ch.p.Add(tl)
		ch.addKey(fmt.Sprintf("dotted: cliff threshold %s errors", units.Rate(s.Plan.CliffRate)), tl)
	}
	markCliffs(ch, s, ss)
	concAxis(ch.p, lv)
	ch.p.Y.Min, ch.p.Y.Max = 0, ymax*1.15
	ch.p.Y.Tick.Marker = humanTicks{}
	return ch, nil
}

// markCliffs rings each config's cliff on the errors chart and labels it
// with the concurrency and the error rate there.
func markCliffs(ch *chart, s sweep.Summary, ss []series) {
	byConfig := map[string]series{}
	for _, sr := range ss {
		byConfig[sr.Config] = sr
	}
	var marks cliffMarks
	stack := map[int]int{}
	for _, cl := range s.Cliffs {
		sr, ok := byConfig[cl.Config]
		if !ok {
			continue
		}
		marks = append(marks, cliffMark{
			X: float64(cl.Concurrency), Y: 100 * cl.ErrorRate, Color: sr.Color,
			Text:  fmt.Sprintf("cliff at c=%d: %s", cl.Concurrency, units.Rate(cl.ErrorRate)),
			Level: stack[cl.Concurrency],
		})
		stack[cl.Concurrency]++
	}
	if len(marks) > 0 {
		ch.p.Add(marks)
		ch.addKey("ring: capacity cliff (first level above the threshold)", &plotter.Scatter{
			GlyphStyle: draw.GlyphStyle{Color: keyColor, Shape: thickRing{}, Radius: vg.Points(5)}})
	}
}

// cliffMark is one ringed, labelled cliff.
type cliffMark struct {
	X, Y  float64
	Color color.Color
	Text  string
	Level int // labels of cliffs at the same concurrency are stacked
}

// cliffMarks draws cliff rings and their labels. A label sits beside its
// ring on the side facing the middle of the plot so it is never clipped.
type cliffMarks []cliffMark

// Plot implements plot.Plotter.
func (m cliffMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, k := range m {
		pt := vg.Point{X: trX(k.X), Y: trY(k.Y)}
		c.DrawGlyph(draw.GlyphStyle{Color: k.Color, Shape: thickRing{}, Radius: vg.Points(8)}, pt)
		st := textStyle(9.5, k.Color, draw.XLeft, draw.YBottom)
		dx := vg.Points(11)
		if p.X.Norm(k.X) > 0.5 {
			st.XAlign = draw.XRight
			dx = -dx
		}
		h := st.Height(k.Text)
		c.FillText(st, vg.Point{X: pt.X + dx, Y: pt.Y + vg.Points(6) + vg.Length(k.Level)*h}, k.Text)
	}
}

// thickRing is a ring glyph with a heavier stroke, to mark cliffs.
type thickRing struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (thickRing) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(2)})
	var p vg.Path
	p.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	p.Arc(pt, sty.Radius, 0, 2*math.Pi)
	p.Close()
	c.Stroke(p)
}
