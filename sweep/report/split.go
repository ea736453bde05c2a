package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sweep-dev/sweep/sweep"
)

// The two parts of cpu_split.png's bars (Okabe–Ito vermillion and sky
// blue, as the palette's first colours are for configs).
var (
	kernelColor = color.RGBA{213, 94, 0, 0xff}
	userColor   = color.RGBA{86, 180, 233, 0xff}
)

// splitBarWidth is the width of cpu_split.png's bars as a fraction of
// the slot each config has, so that neighbouring bars stand apart.
const splitBarWidth = 0.7

// splitChart is cpu_split.png: per concurrency level a panel of stacked
// bars, one per config, the kernel's part of the median CPU per request
// at the bottom and the user part on top. Each bar is named by its values
// on the axes that vary (valuesText) and the axes once, as the panel's x
// axis label. Nil when no cell has the split.
func splitChart(s sweep.Summary, ss []series, lv []int) (*chart, error) {
	if !hasSplit(s.Cells) {
		return nil, nil
	}
	ch := newChart(fmt.Sprintf("%s: where the server's CPU per request goes (medians over rounds)\nkernel (stime) below, user (utime) above; the split is from 10 ms ticks, the total from the process clock", s.Name), "", "")
	values, axes := valuesText(ss)
	top := 0.0
	var names, marks [][]string // each panel's bars' values and marks
	for _, c := range lv {
		p := newPanel(fmt.Sprintf("c=%d", c))
		var ns, ms []string
		for _, sr := range ss {
			cell, ok := sr.cell(c)
			if !ok || cell.KernelUsPerReq == nil || cell.UserUsPerReq == nil {
				continue
			}
			x := float64(len(ns))
			k, u := *cell.KernelUsPerReq, *cell.UserUsPerReq
			kb, err := filled(rect(x-splitBarWidth/2, x+splitBarWidth/2, 0, k), kernelColor, nil, 0)
			if err != nil {
				return nil, err
			}
			ub, err := filled(rect(x-splitBarWidth/2, x+splitBarWidth/2, k, k+u), userColor, nil, 0)
			if err != nil {
				return nil, err
			}
			p.Add(kb, ub)
			ns = append(ns, values[sr.Config])
			ms = append(ms, splitMark(sr))
			top = math.Max(top, k+u)
		}
		if len(ns) == 0 {
			continue
		}
		p.X.Min, p.X.Max = -0.6, float64(len(ns))-0.4
		p.X.Label.Text = strings.Join(axes, "/")
		p.Y.Label.Text = "µs per request"
		p.X.Label.TextStyle.Font.Size = vg.Points(8)
		p.Y.Label.TextStyle.Font.Size = vg.Points(8)
		ch.panels = append(ch.panels, p)
		names, marks = append(names, ns), append(marks, ms)
	}
	if len(ch.panels) == 0 {
		return nil, nil
	}
	for i, p := range ch.panels {
		p.Y.Min, p.Y.Max = 0, top*1.06
		p.Y.Tick.Marker = humanTicks{}
		splitTicks(p, names[i], marks[i], splitSlot(len(ch.panels), len(names[i])))
	}
	ch.add("kernel (stime)", swatch(kernelColor))
	ch.add("user (utime)", swatch(userColor))
	return ch, nil
}

// splitSlot estimates the width each of n bars gets in one of panels
// panels of cpu_split.png: the canvas shared out as drawPanels does, less
// the y axis.
func splitSlot(panels, n int) vg.Length {
	cols, _ := panelGrid(panels)
	w := (chartWidth-vg.Points(20)-vg.Length(cols-1)*panelPad)/vg.Length(cols) - vg.Points(40)
	return w / vg.Length(float64(n)+0.2)
}

// splitMark marks the baseline and its A/A twin on cpu_split.png, whose
// values are the same.
func splitMark(sr series) string {
	switch {
	case sr.Baseline:
		return "(baseline)"
	case sr.AA:
		return "[A/A]"
	}
	return ""
}

// splitTicks labels the bars of a cpu_split.png panel, slot wide each,
// with their values and marks: on one line ("0 (baseline)") where the
// labels fit side by side with a little space between, else with the marks on a second line, else on
// one line set upright, ending at the tick, so that they neither overlap
// nor reach left of the panel.
func splitTicks(p *plot.Plot, names, marks []string, slot vg.Length) {
	label := func(sep string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = n
			if marks[i] != "" {
				out[i] += sep + marks[i]
			}
		}
		return out
	}
	fits := func(labels []string) bool {
		for _, l := range labels {
			if p.X.Tick.Label.Width(l) > slot-vg.Points(4) {
				return false
			}
		}
		return true
	}
	one, two := label(" "), label("\n")
	switch {
	case fits(one):
		p.X.Tick.Marker = categoryTicks(one)
	case fits(two):
		p.X.Tick.Marker = categoryTicks(two)
	default:
		p.X.Tick.Marker = categoryTicks(one)
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	}
}

// swatch is a legend thumbnail filled with c.
func swatch(c color.Color) plot.Thumbnailer {
	return &plotter.BarChart{Color: c}
}
