package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

var (
	goodColor = color.RGBA{0x1a, 0x96, 0x41, 0xff} // green
	badColor  = color.RGBA{0xd7, 0x19, 0x1c, 0xff} // red
	nsColor   = color.RGBA{0xee, 0xee, 0xee, 0xff} // no detectable change
)

// objective maps the plan's objective to its metric, the metric in
// words and whether higher values are better.
func objective(obj sweep.Objective) (metric sweep.Metric, words string, higherBetter bool) {
	metric = obj.Metric()
	words = "CPU per request"
	if metric == sweep.MetricSuccessRPS {
		words = "successful requests/s"
	}
	return metric, words, !metric.LowerIsBetter()
}

// targetConc is the concurrency the run optimises for: the plan's target
// when it was measured, else the highest level.
func targetConc(s sweep.Summary, lv []int) int {
	for _, c := range lv {
		if c == s.Plan.TargetConc {
			return c
		}
	}
	if len(lv) == 0 {
		return 0
	}
	return lv[len(lv)-1]
}

// axisValues returns the distinct values of axis in grid order: the
// plan's points first, then any that appear only in cells.
func axisValues(s sweep.Summary, axis string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p sweep.Point) {
		if v, ok := p[axis]; ok && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, p := range s.Plan.Points {
		add(p)
	}
	for _, c := range s.Cells {
		if !c.AA {
			add(c.Point)
		}
	}
	return out
}

// heatCell is one annotated cell of the heatmap.
type heatCell struct {
	X, Y  int
	Fill  color.Color
	Lines string
	Dark  bool // white text
}

// heatmapChart is heatmap.png for two-axis grids: the objective's paired
// median change vs the baseline over both axes at the target
// concurrency, each cell annotated with its value, interval and verdict.
// It returns nil for grids with another number of axes.
func heatmapChart(s sweep.Summary, ss []series, lv []int) (*chart, error) {
	if len(s.Plan.Axes) != 2 || len(lv) == 0 {
		return nil, nil
	}
	ax, ay := s.Plan.Axes[0], s.Plan.Axes[1]
	xs, ys := axisValues(s, ax), axisValues(s, ay)
	if len(xs) == 0 || len(ys) == 0 {
		return nil, nil
	}
	metric, words, higher := objective(s.Plan.Objective)
	conc := targetConc(s, lv)

	type key struct{ x, y string }
	cells := map[key]sweep.Cell{}
	vmax := 0.05
	anyUndecided := false
	for _, sr := range ss {
		if sr.AA {
			continue
		}
		c, ok := sr.cell(conc)
		if !ok {
			continue
		}
		cells[key{c.Point[ax], c.Point[ay]}] = c
		if d, ok := c.VsBaseline[metric]; ok && detected(d) {
			vmax = math.Max(vmax, math.Abs(d.Median))
		}
		if d, ok := c.VsBaseline[metric]; ok && d.Verdict == sweep.VerdictUndecided {
			anyUndecided = true
		}
	}

	title := fmt.Sprintf("%s: %s vs baseline at c=%d (paired median change [q1, q3])\ngreen = better, red = worse, grey = no detectable change", s.Name, words, conc)
	if anyUndecided {
		title += ", white = undecided (too few rounds)"
	}
	ch := newChart(title, ax, ay)
	var hc []heatCell
	for i, xv := range xs {
		for j, yv := range ys {
			h := heatCell{X: i, Y: j, Fill: color.White, Lines: "not measured"}
			c, ok := cells[key{xv, yv}]
			switch {
			case !ok || !measured(c):
			case c.Baseline:
				h.Lines = "baseline"
				h.Fill = color.RGBA{0xfa, 0xfa, 0xfa, 0xff}
			default:
				d, ok := c.VsBaseline[metric]
				if !ok {
					h.Lines = "no comparison"
					break
				}
				h.Lines = units.Change(d.Median) + "\n" + interval(d.Q1, d.Q3) + "\n" + string(d.Verdict)
				if d.Verdict == sweep.VerdictUndecided {
					h.Lines += fmt.Sprintf("\n(%d of %d rounds)", d.Pairs, d.Needed)
					break // white: nothing was decided
				}
				if !detected(d) {
					h.Fill = nsColor
					break
				}
				better := (d.Median < 0) != higher
				base := badColor
				if better {
					base = goodColor
				}
				a := 0.25 + 0.75*math.Sqrt(math.Min(1, math.Abs(d.Median)/vmax))
				h.Fill = fade(base, a)
				h.Dark = a > 0.65
			}
			if c.Cliff != nil && measured(c) {
				h.Lines += fmt.Sprintf("\n(cliff at c=%d)", c.Cliff.At)
			}
			hc = append(hc, h)
		}
	}
	for _, h := range hc {
		p, err := filled(rect(float64(h.X)-0.5, float64(h.X)+0.5, float64(h.Y)-0.5, float64(h.Y)+0.5), h.Fill, color.White, vg.Points(3))
		if err != nil {
			return nil, err
		}
		ch.p.Add(p)
	}
	ch.p.Add(heatLabels(hc))
	ch.p.X.Tick.Marker = categoryTicks(xs)
	ch.p.Y.Tick.Marker = categoryTicks(ys)
	ch.p.X.Min, ch.p.X.Max = -0.5, float64(len(xs))-0.5
	ch.p.Y.Min, ch.p.Y.Max = -0.5, float64(len(ys))-0.5
	ch.p.X.Padding, ch.p.Y.Padding = 0, 0
	return ch, nil
}

// categoryTicks labels positions 0..n-1 with names.
func categoryTicks(names []string) plot.ConstantTicks {
	ts := make(plot.ConstantTicks, len(names))
	for i, n := range names {
		ts[i] = plot.Tick{Value: float64(i), Label: n}
	}
	return ts
}

// heatLabels draws each cell's annotation centred in the cell.
type heatLabels []heatCell

// Plot implements plot.Plotter.
func (hl heatLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, h := range hl {
		col := color.Color(color.Black)
		if h.Dark {
			col = color.White
		}
		pt := vg.Point{X: trX(float64(h.X)), Y: trY(float64(h.Y))}
		head, rest, _ := strings.Cut(h.Lines, "\n")
		big := textStyle(14, col, draw.XCenter, draw.YBottom)
		c.FillText(big, vg.Point{X: pt.X, Y: pt.Y + vg.Points(2)}, head)
		if rest != "" {
			small := textStyle(10, col, draw.XCenter, draw.YTop)
			c.FillText(small, vg.Point{X: pt.X, Y: pt.Y - vg.Points(1)}, rest)
		}
	}
}
