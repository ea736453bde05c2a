package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
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
	var marks throughputMarks
	if len(candidates(ss)) > maxOverlaid {
		err := panelSeries(ch, ss, lv, func(p *chart, sr series) error {
			var m throughputMarks
			if _, err := drawThroughput(p, sr, &m); err != nil {
				return err
			}
			marks.errors = marks.errors || m.errors
			marks.cliff = append(marks.cliff, m.cliff...)
			marks.bound = append(marks.bound, m.bound...)
			return m.draw(p)
		})
		if err != nil {
			return nil, err
		}
	} else {
		for _, sr := range ss {
			thumbs, err := drawThroughput(ch, sr, &marks)
			if err != nil {
				return nil, err
			}
			if thumbs == nil {
				thumbs = legendThumbs(sr)
			}
			ch.add(sr.Legend, thumbs...)
		}
		if err := marks.draw(ch); err != nil {
			return nil, err
		}
		concAxis(ch.p, lv)
		fromZero(ch.p)
	}
	if marks.errors {
		ch.addKey("solid: successful (2xx/3xx) requests/s", styleKey([]vg.Length{}, 0)...)
		ch.addKey("dashed: all completed requests/s, errors included", styleKey(dashed, 0)...)
	}
	if len(marks.cliff) > 0 {
		ch.addKey("×: at/past capacity cliff, RPS there is not saturation", cliffThumb())
	}
	if len(marks.bound) > 0 {
		ch.addKey("○: generator-bound windows, RPS may be the load generator's limit", boundThumb())
	}
	return ch, nil
}

// throughputMarks are what throughput.png marks beyond the lines: whether
// any config saw errors, the cells at or past a capacity cliff and those
// with generator-bound windows.
type throughputMarks struct {
	errors       bool
	cliff, bound plotter.XYs
}

// drawThroughput draws one series of throughput.png (success RPS, and
// total RPS dashed when it saw errors), collects its marks into m and
// returns its legend thumbnails.
func drawThroughput(ch *chart, sr series, m *throughputMarks) ([]plot.Thumbnailer, error) {
	pts := sr.xy(0, func(c sweep.Cell) (float64, bool) { return c.SuccessRPS, true })
	thumbs, err := addSeries(ch, sr, pts, []vg.Length{}, glyphRadius)
	if err != nil {
		return nil, err
	}
	if hasErrors(sr) {
		m.errors = true
		tot := sr.xy(0, func(c sweep.Cell) (float64, bool) { return c.RPS, true })
		if _, err := addSeries(ch, sr, tot, dashed, 0); err != nil {
			return nil, err
		}
	}
	for _, c := range sr.Cells {
		pt := plotter.XY{X: float64(c.Concurrency), Y: c.SuccessRPS}
		if measured(c) && atCliff(c) {
			m.cliff = append(m.cliff, pt)
		}
		if measured(c) && c.GeneratorBound > 0 {
			m.bound = append(m.bound, pt)
		}
	}
	return thumbs, nil
}

// draw adds the marks to ch.
func (m throughputMarks) draw(ch *chart) error {
	for _, mk := range []struct {
		pts plotter.XYs
		g   draw.GlyphDrawer
	}{{m.cliff, draw.CrossGlyph{}}, {m.bound, draw.RingGlyph{}}} {
		if len(mk.pts) == 0 {
			continue
		}
		x, err := points(mk.pts, color.Black, mk.g, vg.Points(7))
		if err != nil {
			return err
		}
		ch.p.Add(x)
	}
	return nil
}

// cliffThumb and boundThumb are the marks' legend thumbnails.
func cliffThumb() plot.Thumbnailer {
	return &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: color.Black, Shape: draw.CrossGlyph{}, Radius: vg.Points(7)}}
}

func boundThumb() plot.Thumbnailer {
	return &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: color.Black, Shape: draw.RingGlyph{}, Radius: vg.Points(7)}}
}
