package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

var bandColor = color.Gray{Y: 218}

// candidates are the series compared against the baseline: neither the
// baseline itself nor its A/A twin.
func candidates(ss []series) []series {
	var out []series
	for _, s := range ss {
		if !s.Baseline && !s.AA {
			out = append(out, s)
		}
	}
	return out
}

// aaBand returns the A/A noise band for metric at concurrency c, taken
// from the baseline's cell when it carries one, else from any cell.
func aaBand(s sweep.Summary, c int, metric sweep.Metric) (sweep.Band, bool) {
	var found *sweep.Band
	for _, x := range s.Cells {
		if x.Concurrency != c {
			continue
		}
		if b, ok := x.AABand[metric]; ok {
			if x.Baseline {
				return b, true
			}
			if found == nil {
				found = &b
			}
		}
	}
	if found == nil {
		return sweep.Band{}, false
	}
	return *found, true
}

// detected reports whether a verdict is a real effect.
func detected(d sweep.Delta) bool {
	return d.Verdict == sweep.VerdictBetter || d.Verdict == sweep.VerdictWorse
}

// undecidedDashes outline the bar of an undecided comparison: nothing
// was decided, which a faded (no detectable change) bar would not say.
var undecidedDashes = []vg.Length{vg.Points(3), vg.Points(2)}

// rect is the closed ring of an axis-aligned rectangle.
func rect(x0, x1, y0, y1 float64) plotter.XYs {
	return plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
}

// filled returns a filled rectangle.
func filled(r plotter.XYs, fill, edge color.Color, edgeWidth vg.Length) (*plotter.Polygon, error) {
	p, err := plotter.NewPolygon(r)
	if err != nil {
		return nil, err
	}
	p.Color = fill
	p.LineStyle = draw.LineStyle{Color: edge, Width: edgeWidth}
	if edge == nil {
		p.LineStyle.Width = 0
	}
	return p, nil
}

// tradeoffChart is tradeoff.png, the headline: per concurrency level, one
// bar per candidate config with its paired median change in CPU per
// request vs the baseline (whiskers: the interval the verdict was decided
// on), over the A/A noise band in
// grey. Effects that are not detectable are drawn faded, and comparisons
// that decided nothing (too few rounds) nearly empty with a dashed
// outline, so a setting
// that is cheaper alone and costlier together shows as a solid bar below
// zero at the lowest level and a solid bar above zero further right. It
// returns nil when there is nothing to compare.
func tradeoffChart(s sweep.Summary, ss []series, lv []int) (*chart, error) {
	cands := candidates(ss)
	if len(cands) == 0 || len(lv) == 0 {
		return nil, nil
	}
	const metric = sweep.MetricCPUPerReq
	title := fmt.Sprintf("%s: CPU per request vs baseline, by concurrency (below 0 = cheaper)", s.Name)
	if flips := flipWords(s, metric); flips != "" {
		title += "\n" + flips
	}
	ch := newChart(title, "concurrency level", "change in server CPU per request vs baseline (%)")

	const groupW = 0.8
	bw := groupW / float64(len(cands))
	anyBand, anyFaded, anyUndecided, anyRace, anyCliff, anyCI, anyQ, anyRaceQ := false, false, false, false, false, false, false, false
	lo, hi := 0.0, 0.0
	for i, c := range lv {
		b, ok := aaBand(s, c, metric)
		if !ok {
			continue
		}
		anyBand = true
		p, err := filled(rect(float64(i)-0.46, float64(i)+0.46, 100*b.Q1, 100*b.Q3), bandColor, nil, 0)
		if err != nil {
			return nil, err
		}
		ch.p.Add(p)
		lo, hi = math.Min(lo, 100*b.Q1), math.Max(hi, 100*b.Q3)
	}
	ch.p.Add(hline{Y: 0, LineStyle: draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}})

	annotate := len(cands)*len(lv) <= 30
	// Past the palette's colours, two configs share a colour: a glyph in
	// the middle of every bar (each config's own, as on the line charts)
	// tells them apart.
	marked := colorsRepeat(cands)
	var labels barLabels
	for j, sr := range cands {
		for i, c := range lv {
			cell, ok := sr.cell(c)
			if !ok || !measured(cell) {
				continue
			}
			d, ok := cell.VsBaseline[metric]
			if !ok {
				continue
			}
			x0 := float64(i) - groupW/2 + bw*float64(j) + bw*0.08
			x1 := x0 + bw*0.84
			fill := sr.Color
			switch {
			case d.Verdict == sweep.VerdictUndecided:
				fill = fade(sr.Color, 0.06)
				anyUndecided = true
			case d.Verdict.RaceOnly():
				// A description of selected data, not a verdict: it must
				// not read as "no detectable change".
				fill = color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
				anyRace = true
			case !detected(d):
				fill = fade(sr.Color, 0.3)
				anyFaded = true
			}
			bar, err := filled(rect(x0, x1, 0, 100*d.Median), fill, sr.Color, vg.Points(0.8))
			if err != nil {
				return nil, err
			}
			if d.Verdict == sweep.VerdictUndecided {
				bar.LineStyle.Dashes = undecidedDashes
			}
			ch.p.Add(bar)
			if marked {
				ch.p.Add(barGlyph(sr, fill, (x0+x1)/2, 50*d.Median))
			}
			if cell.Cliff != nil {
				// Past a cliff failed requests are cheap: hatch the bar so a
				// "better" made of failures does not read as solid.
				ch.p.Add(hatch{X0: x0, X1: x1, Y0: 0, Y1: 100 * d.Median})
				anyCliff = true
			}
			xm := (x0 + x1) / 2
			// The whiskers are the interval the verdict was decided on;
			// without one (too few pairs) the quartiles of the changes.
			wlo, whi := d.Q1, d.Q3
			if d.CILow != nil && d.CIHigh != nil {
				wlo, whi = *d.CILow, *d.CIHigh
				anyCI = true
			} else if d.Verdict.RaceOnly() {
				anyRaceQ = true
			} else {
				anyQ = true
			}
			eb, err := plotter.NewYErrorBars(errBars{
				plotter.XYs{{X: xm, Y: 100 * d.Median}},
				plotter.YErrors{{Low: 100 * math.Max(d.Median-wlo, 0), High: 100 * math.Max(whi-d.Median, 0)}},
			})
			if err != nil {
				return nil, err
			}
			eb.Color = color.Black
			eb.Width = vg.Points(1)
			eb.CapWidth = vg.Points(math.Min(6, 400*bw/float64(len(lv))))
			ch.p.Add(eb)
			lo = math.Min(lo, 100*math.Min(wlo, d.Median))
			hi = math.Max(hi, 100*math.Max(whi, d.Median))
			// Past a capacity cliff failed requests are cheap, so CPU per
			// request looks better than it is: say so on the bar.
			if annotate || cell.Cliff != nil {
				y, above := 100*math.Max(whi, d.Median), true
				if d.Median < 0 {
					y, above = 100*math.Min(wlo, d.Median), false
				}
				var text []string
				if annotate {
					text = append(text, units.Change(d.Median))
				}
				if cell.Cliff != nil {
					text = append(text, map[bool]string{false: "at cliff", true: "past cliff"}[cell.Cliff.Past])
				}
				if above { // the value goes next to the bar
					slices.Reverse(text)
				}
				labels = append(labels, barLabel{X: xm, Y: y, Above: above, Text: strings.Join(text, "\n")})
			}
		}
		thumb, _ := filled(rect(0, 1, 0, 1), sr.Color, sr.Color, vg.Points(0.8))
		thumbs := []plot.Thumbnailer{thumb}
		if marked {
			thumbs = append(thumbs, barGlyph(sr, sr.Color, 0, 0))
		}
		ch.add(sr.Legend, thumbs...)
	}
	if len(labels) > 0 {
		ch.p.Add(labels)
	}
	if anyBand {
		band, _ := filled(rect(0, 1, 0, 1), bandColor, nil, 0)
		ch.addKey("grey band: A/A noise, q1..q3", band)
	} else if s.AAConfig == "" {
		ch.p.Title.Text += "\nno A/A control in this run: no noise band"
	} else {
		ch.p.Title.Text += "\nno A/A band measured: no noise band"
	}
	if anyFaded {
		f, _ := filled(rect(0, 1, 0, 1), fade(keyColor, 0.3), keyColor, vg.Points(0.8))
		ch.addKey("faded bar: no detectable change", f)
	}
	if anyUndecided {
		u, _ := filled(rect(0, 1, 0, 1), fade(keyColor, 0.06), keyColor, vg.Points(0.8))
		u.LineStyle.Dashes = undecidedDashes
		ch.addKey("dashed, nearly empty bar: undecided (too few rounds for an interval)", u)
	}
	if anyRace {
		r, _ := filled(rect(0, 1, 0, 1), color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}, keyColor, vg.Points(0.8))
		ch.addKey("white bar: race data of a config the race eliminated or left unconfirmed, no verdict", r)
	}
	if anyCliff {
		h, _ := filled(rect(0, 1, 0, 1), fade(keyColor, 0.3), keyColor, vg.Points(0.8))
		ch.addKey("hatched bar: at/past capacity cliff, cheap because requests fail", h, hatch{X0: 0, X1: 1, Y0: 0, Y1: 1})
	}
	if anyCI {
		ch.addKey("whiskers: the verdict's confidence interval (family-wise)", styleKey([]vg.Length{}, 0)...)
	}
	if anyQ {
		ch.addKey("whiskers: q1..q3 of the paired changes (too few pairs for an interval)", styleKey([]vg.Length{}, 0)...)
	}
	if anyRaceQ {
		ch.addKey("whiskers on a white bar: q1..q3 of the race's paired changes (selected data: no interval)", styleKey([]vg.Length{}, 0)...)
	}

	ticks := make([]plot.Tick, len(lv))
	for i, c := range lv {
		ticks[i] = plot.Tick{Value: float64(i), Label: fmt.Sprintf("c=%d", c)}
	}
	ch.p.X.Tick.Marker = plot.ConstantTicks(ticks)
	ch.p.X.Min, ch.p.X.Max = -0.5, float64(len(lv))-0.5
	pad := math.Max((hi-lo)*0.12, 1)
	ch.p.Y.Min, ch.p.Y.Max = lo-pad, hi+pad
	ch.p.Y.Tick.Marker = humanTicks{}
	return ch, nil
}

// colorsRepeat reports whether two of ss share a colour.
func colorsRepeat(ss []series) bool {
	seen := map[color.RGBA]bool{}
	for _, sr := range ss {
		if seen[sr.Color] {
			return true
		}
		seen[sr.Color] = true
	}
	return false
}

// barGlyph is sr's glyph at (x, y) on a bar filled with fill, drawn when
// colours repeat: black, or white on a dark fill; as a legend thumbnail
// it sits in the middle.
func barGlyph(sr series, fill color.Color, x, y float64) *plotter.Scatter {
	g, _ := plotter.NewScatter(plotter.XYs{{X: x, Y: y}})
	ink := color.Color(color.Black)
	if r, gr, b, _ := fill.RGBA(); 299*r+587*gr+114*b < 1000*80*257 {
		ink = color.White
	}
	g.GlyphStyle = draw.GlyphStyle{Color: ink, Shape: sr.Glyph, Radius: vg.Points(2.6)}
	return g
}

// flipWords is the chart subtitle naming the configs whose effect on
// metric flips sign between the lowest and a higher concurrency, or
// counting them when the names would not fit on one line.
func flipWords(s sweep.Summary, metric sweep.Metric) string {
	var names []string
	seen := map[string]bool{}
	low := 0
	for _, t := range s.Tradeoffs {
		if t.Metric != metric || !t.Flip || seen[t.Config] {
			continue
		}
		seen[t.Config] = true
		names = append(names, t.Config)
		low = t.LowConc
	}
	if len(names) == 0 {
		return ""
	}
	head := fmt.Sprintf("sign flips between c=%d and higher concurrency: ", low)
	if line := head + strings.Join(names, ", "); len([]rune(line)) <= 110 {
		return line
	}
	return head + fmt.Sprintf("%d settings (see summary.md)", len(names))
}

// barLabel is a value printed beyond the end of a bar's whisker.
type barLabel struct {
	X, Y  float64
	Above bool
	Text  string
}

// barLabels draws bar value labels. A label that would cover one drawn
// before it moves away from its bar by a line, up to three times: the
// bars of a big group are narrower than their labels.
type barLabels []barLabel

// Plot implements plot.Plotter.
func (ls barLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var placed []vg.Rectangle
	for _, l := range ls {
		st := textStyle(8, color.Black, draw.XCenter, draw.YBottom)
		dir := vg.Length(1)
		if !l.Above {
			st.YAlign = draw.YTop
			dir = -1
		}
		at, box := placeLabel(vg.Point{X: trX(l.X), Y: trY(l.Y)}, st.Width(l.Text), st.Height(l.Text), dir, placed)
		placed = append(placed, box)
		c.FillText(st, at, l.Text)
	}
}

// placeLabel places a label w wide and h high beyond the bar end at end,
// upwards (dir 1) or downwards (dir −1): 2 points away, or a line further
// per label among placed it would cover, up to three lines. It returns
// the text's anchor and the box it takes.
func placeLabel(end vg.Point, w, h, dir vg.Length, placed []vg.Rectangle) (vg.Point, vg.Rectangle) {
	var at vg.Point
	var box vg.Rectangle
	for k := range 4 {
		at = vg.Point{X: end.X, Y: end.Y + dir*(vg.Points(2)+vg.Length(k)*h)}
		box = vg.Rectangle{Min: vg.Point{X: end.X - w/2, Y: at.Y}, Max: vg.Point{X: end.X + w/2, Y: at.Y + h}}
		if dir < 0 {
			box.Min.Y, box.Max.Y = at.Y-h, at.Y
		}
		if !slices.ContainsFunc(placed, func(r vg.Rectangle) bool { return overlaps(r, box) }) {
			break
		}
	}
	return at, box
}

// overlaps reports whether rectangles a and b share any area.
func overlaps(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// hatch draws diagonal lines across the rectangle [X0, X1] × [Y0, Y1]
// (data coordinates, in either order): the mark of a bar at or past a
// capacity cliff. As a legend thumbnail it hatches the thumbnail's box.
type hatch struct{ X0, X1, Y0, Y1 float64 }

// Plot implements plot.Plotter.
func (h hatch) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	drawHatch(&c, trX(h.X0), trX(h.X1), trY(h.Y0), trY(h.Y1))
}

// Thumbnail implements plot.Thumbnailer.
func (h hatch) Thumbnail(c *draw.Canvas) {
	drawHatch(c, c.Min.X, c.Max.X, c.Min.Y, c.Max.Y)
}

// drawHatch draws lines of slope 1 every 4 points inside the canvas box
// x0..x1 × y0..y1.
func drawHatch(c *draw.Canvas, x0, x1, y0, y1 vg.Length) {
	if x0 > x1 {
		x0, x1 = x1, x0
	}
	if y0 > y1 {
		y0, y1 = y1, y0
	}
	st := draw.LineStyle{Color: color.Black, Width: vg.Points(0.6)}
	step := vg.Points(4)
	for k := -(y1 - y0); k < x1-x0; k += step {
		// the line x − x0 = (y − y0) + k, clipped to the box
		ya, yb := y0, y1
		if xa := x0 + k; xa < x0 {
			ya = y0 + (x0 - xa)
		}
		if xb := x0 + k + (y1 - y0); xb > x1 {
			yb = y1 - (xb - x1)
		}
		if yb <= ya {
			continue
		}
		c.StrokeLine2(st, x0+k+(ya-y0), ya, x0+k+(yb-y0), yb)
	}
}
