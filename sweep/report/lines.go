package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sweep-dev/sweep/sweep"
)

const (
	lineWidth     = 1.6
	baselineWidth = 2.6
	aaWidth       = 1
	glyphRadius   = 3.2
	smallGlyph    = 1.8
)

// concLabel is the x axis label of every chart over concurrency.
const concLabel = "concurrency (closed-loop keep-alive connections, log2 scale)"

// width is the line width of a series: the baseline is drawn thicker,
// its A/A twin thinner.
func (s series) width() vg.Length {
	switch {
	case s.Baseline:
		return vg.Points(baselineWidth)
	case s.AA:
		return vg.Points(aaWidth)
	}
	return vg.Points(lineWidth)
}

// measured reports whether a cell has any windows behind its medians.
func measured(c sweep.Cell) bool { return c.Rounds > 0 }

// xy is a series' value per measured cell, x = concurrency × 2^dodge.
func (s series) xy(dodge float64, f func(sweep.Cell) (float64, bool)) plotter.XYs {
	var pts plotter.XYs
	for _, c := range s.Cells {
		if !measured(c) {
			continue
		}
		v, ok := f(c)
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		pts = append(pts, plotter.XY{X: float64(c.Concurrency) * math.Exp2(dodge), Y: v})
	}
	return pts
}

// addSeries draws pts as a line in the series' style, with its glyphs of
// radius glyphR (none when 0), and returns the thumbnails for its legend
// entry.
func addSeries(ch *chart, s series, pts plotter.XYs, dashes []vg.Length, glyphR float64) ([]plot.Thumbnailer, error) {
	if len(pts) == 0 {
		return nil, nil
	}
	l, err := line(pts, s.Color, s.width(), dashes)
	if err != nil {
		return nil, err
	}
	ch.p.Add(l)
	thumbs := []plot.Thumbnailer{l}
	if glyphR > 0 {
		g, err := points(pts, s.Color, s.Glyph, vg.Points(glyphR))
		if err != nil {
			return nil, err
		}
		ch.p.Add(g)
		thumbs = append(thumbs, g)
	}
	return thumbs, nil
}

// legendThumbs are a series' legend thumbnails when it has no data of its
// own on a chart (so the legend still lists every config).
func legendThumbs(s series) []plot.Thumbnailer {
	l := &plotter.Line{LineStyle: draw.LineStyle{Color: s.Color, Width: s.width()}}
	g := &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: s.Color, Shape: s.Glyph, Radius: vg.Points(glyphRadius)}}
	return []plot.Thumbnailer{l, g}
}

// styleKey is a legend thumbnail explaining a line style, with a circle
// glyph of radius r when r > 0.
func styleKey(dashes []vg.Length, r float64) []plot.Thumbnailer {
	t := []plot.Thumbnailer{&plotter.Line{LineStyle: draw.LineStyle{Color: keyColor, Width: vg.Points(lineWidth), Dashes: dashes}}}
	if r > 0 {
		t = append(t, &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: keyColor, Shape: draw.CircleGlyph{}, Radius: vg.Points(r)}})
	}
	return t
}

// dodges spreads n series slightly along the log2 x axis so that their
// error bars do not sit on top of each other.
func dodges(n int) []float64 {
	out := make([]float64, n)
	if n < 2 {
		return out
	}
	step := math.Min(0.05, 0.36/float64(n))
	for i := range out {
		out[i] = (float64(i) - float64(n-1)/2) * step
	}
	return out
}

// cpuChart is cpu_per_request.png: server CPU µs per request against
// concurrency, quartiles as error bars.
func cpuChart(s sweep.Summary, ss []series, lv []int) (*chart, error) {
	ch := newChart(
		fmt.Sprintf("%s: server CPU per request (median over rounds; lower is better)\nwhiskers: q1..q3 of the rounds, unpaired, wider than the paired intervals the verdicts use (tradeoff.png)", s.Name),
		concLabel, "server CPU per request (µs)")
	if len(candidates(ss)) > maxOverlaid {
		err := panelSeries(ch, ss, lv, func(p *chart, sr series) error {
			_, err := drawCPU(p, sr, 0)
			return err
		})
		return ch, err
	}
	dz := dodges(len(ss))
	for i, sr := range ss {
		thumbs, err := drawCPU(ch, sr, dz[i])
		if err != nil {
			return nil, err
		}
		if thumbs == nil {
			thumbs = legendThumbs(sr)
		}
		ch.add(sr.Legend, thumbs...)
	}
	concAxis(ch.p, lv)
	fromZero(ch.p)
	return ch, nil
}

// drawCPU draws one series of cpu_per_request.png (line, glyphs and
// quartile whiskers, dodged along x) and returns its legend thumbnails.
func drawCPU(ch *chart, sr series, dodge float64) ([]plot.Thumbnailer, error) {
	pts := sr.xy(dodge, func(c sweep.Cell) (float64, bool) { return c.CPUUsPerReq, true })
	thumbs, err := addSeries(ch, sr, pts, []vg.Length{}, glyphRadius)
	if err != nil || len(pts) == 0 {
		return thumbs, err
	}
	var errs plotter.YErrors
	for _, c := range sr.Cells {
		if !measured(c) {
			continue
		}
		lo, hi := c.CPUUsPerReq-c.CPUUsQ1, c.CPUUsQ3-c.CPUUsPerReq
		errs = append(errs, struct{ Low, High float64 }{math.Max(lo, 0), math.Max(hi, 0)})
	}
	if len(errs) == len(pts) {
		eb, err := plotter.NewYErrorBars(errBars{pts, errs})
		if err != nil {
			return nil, err
		}
		eb.Color = sr.Color
		eb.Width = vg.Points(1.2)
		ch.p.Add(eb)
	}
	return thumbs, nil
}

// fromZero starts the y axis at zero with some headroom above the data.
func fromZero(p *plot.Plot) {
	p.Y.Min = 0
	if math.IsInf(p.Y.Max, 0) || p.Y.Max <= 0 {
		p.Y.Max = 1
	}
	p.Y.Max *= 1.06
	p.Y.Tick.Marker = humanTicks{}
}

// errBars pairs points with their y errors for plotter.NewYErrorBars.
type errBars struct {
	plotter.XYs
	plotter.YErrors
}

// latencyChart is latency.png: p50 (solid) and p99 (dashed) latency
// against concurrency; log y when the values span more than 20×.
func latencyChart(s sweep.Summary, ss []series, lv []int) (*chart, error) {
	ch := newChart(
		fmt.Sprintf("%s: latency (median over rounds of window p50 and p99; lower is better)", s.Name),
		concLabel, "latency (ms)")
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, sr := range ss {
		p50 := sr.xy(0, func(c sweep.Cell) (float64, bool) { return c.P50Ms, c.P50Ms > 0 })
		p99 := sr.xy(0, func(c sweep.Cell) (float64, bool) { return c.P99Ms, c.P99Ms > 0 })
		for _, p := range append(append(plotter.XYs{}, p50...), p99...) {
			lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
		}
		thumbs, err := addSeries(ch, sr, p50, []vg.Length{}, glyphRadius)
		if err != nil {
			return nil, err
		}
		if _, err := addSeries(ch, sr, p99, dashed, smallGlyph); err != nil {
			return nil, err
		}
		if thumbs == nil {
			thumbs = legendThumbs(sr)
		}
		ch.add(sr.Legend, thumbs...)
	}
	ch.addKey("solid, large marker: p50", styleKey([]vg.Length{}, glyphRadius)...)
	ch.addKey("dashed, small marker: p99", styleKey(dashed, smallGlyph)...)
	concAxis(ch.p, lv)
	if hi > 0 && lo > 0 && hi/lo > 20 {
		ch.p.Y.Scale = plot.LogScale{}
		ch.p.Y.Tick.Marker = logTicks{}
		ch.p.Y.Min, ch.p.Y.Max = lo/1.3, hi*1.3
		ch.p.Y.Label.Text = "latency (ms, log scale)"
	} else {
		fromZero(ch.p)
	}
	return ch, nil
}
