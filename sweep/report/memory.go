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
)

// ChartMemory is memory.png: CPU per request against RSS at the target
// concurrency.
const ChartMemory = "memory.png"

// memoryPoint is one config on memory.png: its medians at the target
// level (x RSS in MiB, y CPU µs/req) and the whiskers' ends.
type memoryPoint struct {
	sr                     series
	x, y                   float64
	xLow, xHigh, yLow, yHi float64
	front                  bool // on the Pareto front: no other config is at most as costly in both and cheaper in one
}

// memoryPoints are the configs' points at level c (the A/A twin left
// out: it is the baseline again). A candidate's whiskers are its paired
// intervals (RSS change in MiB, CPU/req change) placed on the baseline's
// medians; the baseline's, and a candidate's without an interval, are its
// CPU quartiles and no RSS whisker.
func memoryPoints(ss []series, c int) []memoryPoint {
	var base *sweep.Cell
	for _, sr := range ss {
		if cell, ok := sr.cell(c); ok && sr.Baseline && measured(cell) {
			base = &cell
		}
	}
	var out []memoryPoint
	for _, sr := range ss {
		cell, ok := sr.cell(c)
		if sr.AA || !ok || !measured(cell) || cell.RSSBytes <= 0 {
			continue
		}
		x := float64(cell.RSSBytes) / sweep.MiB
		p := memoryPoint{sr: sr, x: x, y: cell.CPUUsPerReq, xLow: x, xHigh: x, yLow: cell.CPUUsQ1, yHi: cell.CPUUsQ3}
		if base != nil && !sr.Baseline {
			if d, ok := cell.VsBaseline[sweep.MetricCPUPerReq]; ok && d.CILow != nil && d.CIHigh != nil {
				p.yLow, p.yHi = base.CPUUsPerReq*(1+*d.CILow), base.CPUUsPerReq*(1+*d.CIHigh)
			}
			if m, ok := cell.MemoryVsBaseline[sweep.MemRSS]; ok && m.CILowMiB != nil && m.CIHighMiB != nil {
				bx := float64(base.RSSBytes) / sweep.MiB
				p.xLow, p.xHigh = bx+*m.CILowMiB, bx+*m.CIHighMiB
			}
		}
		out = append(out, p)
	}
	for i := range out {
		out[i].front = true
		for j := range out {
			a, b := out[j], out[i]
			if i != j && a.x <= b.x && a.y <= b.y && (a.x < b.x || a.y < b.y) {
				out[i].front = false
				break
			}
		}
	}
	return out
}

// hasMemoryChange reports whether a cell at level c has a paired RSS
// change: runs analysed before memory.png existed have none and get no
// chart.
func hasMemoryChange(cells []sweep.Cell, c int) bool {
	for _, cell := range cells {
		if _, ok := cell.MemoryVsBaseline[sweep.MemRSS]; ok && cell.Concurrency == c {
			return true
		}
	}
	return false
}

// memoryChart is memory.png: at the target concurrency, each config's
// server CPU per request against its RSS (at the end of the windows, under
// load), with whiskers, the Pareto front joined and ringed, and the
// memory budget (analysis.max_rss) as a dotted vertical line. Nil when
// no cell at that level has a paired RSS change.
func memoryChart(s sweep.Summary, ss []series, _ []int) (*chart, error) {
	c := s.Plan.TargetConc
	pts := memoryPoints(ss, c)
	if len(pts) == 0 || !hasMemoryChange(s.Cells, c) {
		return nil, nil
	}
	ch := newChart(
		fmt.Sprintf("%s: CPU per request against RSS at c=%d (lower left is better)\nwhiskers: the paired intervals vs the baseline (its own: CPU q1..q3); ringed and joined: the Pareto front", s.Name, c),
		"server RSS at the end of the window, as its load stops (MiB)", "server CPU per request (µs)")
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymax := 0.0
	names, _ := valuesText(ss)
	var labels pointLabels
	for _, p := range pts {
		labels = append(labels, pointLabel{X: p.x, Y: p.y,
			Text: fmt.Sprintf("%s: %s µs, %s", names[p.sr.Config], us(p.y), sweep.MiBText(int64(p.x*sweep.MiB)))})
		xmin, xmax = math.Min(xmin, p.xLow), math.Max(xmax, p.xHigh)
		ymax = math.Max(ymax, math.Max(p.y, p.yHi))
		xy := plotter.XYs{{X: p.x, Y: p.y}}
		g, err := points(xy, p.sr.Color, p.sr.Glyph, vg.Points(glyphRadius+1.5))
		if err != nil {
			return nil, err
		}
		yb, err := plotter.NewYErrorBars(errBars{xy, plotter.YErrors{{Low: math.Max(p.y-p.yLow, 0), High: math.Max(p.yHi-p.y, 0)}}})
		if err != nil {
			return nil, err
		}
		yb.Color, yb.Width = p.sr.Color, vg.Points(1.2)
		xb, err := plotter.NewXErrorBars(xErrBars{xy, plotter.XErrors{{Low: math.Max(p.x-p.xLow, 0), High: math.Max(p.xHigh-p.x, 0)}}})
		if err != nil {
			return nil, err
		}
		xb.Color, xb.Width = p.sr.Color, vg.Points(1.2)
		ch.p.Add(yb, xb, g)
		ch.add(p.sr.Legend, g)
	}
	var front plotter.XYs
	for _, p := range pts {
		if p.front {
			front = append(front, plotter.XY{X: p.x, Y: p.y})
		}
	}
	slices.SortFunc(front, func(a, b plotter.XY) int {
		switch {
		case a.X < b.X:
			return -1
		case a.X > b.X:
			return 1
		}
		return 0
	})
	if len(front) > 0 {
		ring, err := points(front, keyColor, thickRing{}, vg.Points(9))
		if err != nil {
			return nil, err
		}
		ch.p.Add(ring)
		thumbs := []plot.Thumbnailer{ring}
		if len(front) > 1 {
			l, err := line(front, keyColor, vg.Points(1), dashed)
			if err != nil {
				return nil, err
			}
			ch.p.Add(l)
			thumbs = append(thumbs, l)
		}
		ch.addKey("ringed, dashed: the Pareto front (no other config uses less CPU and less RSS)", thumbs...)
	}
	ch.p.Add(labels)
	if s.Plan.MaxRSS > 0 {
		b := float64(s.Plan.MaxRSS) / sweep.MiB
		v := vline{X: b, LineStyle: draw.LineStyle{Color: keyColor, Width: vg.Points(1.2), Dashes: dotted}}
		ch.p.Add(v)
		ch.addKey(fmt.Sprintf("dotted: memory budget analysis.max_rss = %s (configs right of it are not recommended)", sweep.MiBText(s.Plan.MaxRSS)), v)
		xmin, xmax = math.Min(xmin, b), math.Max(xmax, b)
	}
	pad := math.Max((xmax-xmin)*0.08, 1)
	ch.p.X.Min, ch.p.X.Max = math.Max(0, xmin-pad), xmax+pad
	ch.p.X.Tick.Marker = humanTicks{}
	ch.p.Y.Max = ymax
	fromZero(ch.p)
	return ch, nil
}

// xErrBars pairs points with their x errors for plotter.NewXErrorBars.
type xErrBars struct {
	plotter.XYs
	plotter.XErrors
}

// vline is a vertical line across the whole data area at X.
type vline struct {
	X float64
	draw.LineStyle
}

// Plot implements plot.Plotter.
func (v vline) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(v.X)
	if x < c.Min.X || x > c.Max.X {
		return
	}
	c.StrokeLine2(v.LineStyle, x, c.Min.Y, x, c.Max.Y)
}

// Thumbnail implements plot.Thumbnailer.
func (v vline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(v.LineStyle, c.Min.X, y, c.Max.X, y)
}

// valuesText names each config of ss by its values on the axes that vary
// among them, in axis order joined with "/" ("4MiB"; "4MiB/100" with two
// such axes), keyed by config label, and returns those axes, so that a
// chart names them once (in an axis label) rather than on every config.
// Axes with one value across ss are left out; when none varies, all are
// kept. A config without a point is named by its label. The names carry
// no baseline or A/A mark: the A/A twin's values are the baseline's.
func valuesText(ss []series) (names map[string]string, axes []string) {
	values := map[string]map[string]bool{}
	var all []string
	for _, sr := range ss {
		if len(sr.Cells) == 0 {
			continue
		}
		for k, v := range sr.Cells[0].Point {
			if values[k] == nil {
				values[k] = map[string]bool{}
				all = append(all, k)
			}
			values[k][v] = true
		}
	}
	slices.Sort(all)
	for _, k := range all {
		if len(values[k]) > 1 {
			axes = append(axes, k)
		}
	}
	if len(axes) == 0 {
		axes = all
	}
	names = make(map[string]string, len(ss))
	for _, sr := range ss {
		if len(sr.Cells) == 0 || len(sr.Cells[0].Point) == 0 {
			names[sr.Config] = sr.Config
			continue
		}
		p := sr.Cells[0].Point
		var vs []string
		for _, k := range axes {
			if v, ok := p[k]; ok {
				vs = append(vs, v)
			}
		}
		names[sr.Config] = strings.Join(vs, "/")
	}
	return names, axes
}

// pointLabel is a text beside a point of memory.png.
type pointLabel struct {
	X, Y float64
	Text string
}

// pointLabels draws point labels to the right of their points, or to the
// left in the right half of the plot, clear of the Pareto rings.
type pointLabels []pointLabel

// Plot implements plot.Plotter.
func (ls pointLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, l := range ls {
		st := textStyle(9, color.Black, draw.XLeft, draw.YBottom)
		dx := vg.Points(12)
		if p.X.Norm(l.X) > 0.5 {
			st.XAlign, dx = draw.XRight, -dx
		}
		c.FillText(st, vg.Point{X: trX(l.X) + dx, Y: trY(l.Y) + vg.Points(4)}, l.Text)
	}
}
