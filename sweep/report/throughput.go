package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sweep-dev/sweep/sweep"
)

// hasErrors reports whether any measured cell of sr saw errors.
func hasErrors(sr series) bool {
	for _, c := range sr.Cells {
		if measured(c) && (c.ErrorRate > 0 || c.Errors5xx > 0) {
			return true
		}
	}
	return false
}

// atCliff reports whether c is at or past its config's capacity cliff.
func atCliff(c sweep.Cell) bool { return c.Cliff != nil }

// throughputChart is throughput.png: successful requests/s against
// concurrency; total RPS dashed for configs that saw errors, an × on
// cells at or past a capacity cliff, whose RPS is not saturation, and a
// ring on cells with generator-bound windows, whose RPS may be the
// client's limit rather than a capacity peak.
func throughputChart(s sweep.Summary, ss []series, lv []int) (*chart, error) {
	ch := newChart(
		fmt.Sprintf("%s: throughput (median requests/s; higher is better)", s.Name),
		concLabel, "requests per second")
	anyErr, anyCliff := false, false
	var cliffPts, boundPts plotter.XYs
	for _, sr := range ss {
		pts := sr.xy(0, func(c sweep.Cell) (float64, bool) { return c.SuccessRPS, true })
		thumbs, err := addSeries(ch, sr, pts, []vg.Length{}, glyphRadius)
		if err != nil {
			return nil, err
		}
		if hasErrors(sr) {
			anyErr = true
			tot := sr.xy(0, func(c sweep.Cell) (float64, bool) { return c.RPS, true })
			if _, err := addSeries(ch, sr, tot, dashed, 0); err != nil {
				return nil, err
			}
		}
		for _, c := range sr.Cells {
			if measured(c) && atCliff(c) {
				anyCliff = true
				cliffPts = append(cliffPts, plotter.XY{X: float64(c.Concurrency), Y: c.SuccessRPS})
			}
			if measured(c) && c.GeneratorBound > 0 {
				boundPts = append(boundPts, plotter.XY{X: float64(c.Concurrency), Y: c.SuccessRPS})
			}
		}
		if thumbs == nil {
			thumbs = legendThumbs(sr)
		}
		ch.add(sr.Legend, thumbs...)
	}
	if anyErr {
		ch.add("solid: successful (2xx/3xx) requests/s", styleKey([]vg.Length{}, 0)...)
		ch.add("dashed: all completed requests/s, errors included", styleKey(dashed, 0)...)
	}
	if anyCliff {
		x, err := points(cliffPts, color.Black, draw.CrossGlyph{}, vg.Points(7))
		if err != nil {
			return nil, err
		}
		ch.p.Add(x)
		ch.add("×: at/past capacity cliff, RPS there is not saturation", x)
	}
	if len(boundPts) > 0 {
		o, err := points(boundPts, color.Black, draw.RingGlyph{}, vg.Points(7))
		if err != nil {
			return nil, err
		}
		ch.p.Add(o)
		ch.add("○: generator-bound windows, RPS may be the load generator's limit", o)
	}
	concAxis(ch.p, lv)
	fromZero(ch.p)
	return ch, nil
}
