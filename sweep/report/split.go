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
)

// The two parts of cpu_split.png's bars (Okabe–Ito vermillion and sky
// blue, as the palette's first colours are for configs).
var (
	kernelColor = color.RGBA{213, 94, 0, 0xff}
	userColor   = color.RGBA{86, 180, 233, 0xff}
)

// splitChart is cpu_split.png: per concurrency level a panel of stacked
// bars, one per config, the kernel's part of the median CPU per request
// at the bottom and the user part on top. Nil when no cell has the split.
func splitChart(s sweep.Summary, ss []series, lv []int) (*chart, error) {
	if !hasSplit(s.Cells) {
		return nil, nil
	}
	ch := newChart(fmt.Sprintf("%s: where the server's CPU per request goes (medians over rounds)\nkernel (stime) below, user (utime) above; the split is from 10 ms ticks, the total from the process clock", s.Name), "", "")
	top := 0.0
	for _, c := range lv {
		p := newPanel(fmt.Sprintf("c=%d", c))
		var kern, user plotter.Values
		var names []string
		for _, sr := range ss {
			cell, ok := sr.cell(c)
			if !ok || cell.KernelUsPerReq == nil || cell.UserUsPerReq == nil {
				continue
			}
			kern = append(kern, *cell.KernelUsPerReq)
			user = append(user, *cell.UserUsPerReq)
			names = append(names, sr.Legend)
			top = math.Max(top, *cell.KernelUsPerReq+*cell.UserUsPerReq)
		}
		if len(kern) == 0 {
			continue
		}
		w := vg.Points(math.Min(28, 300/float64(len(kern))))
		kb, err := plotter.NewBarChart(kern, w)
		if err != nil {
			return nil, err
		}
		ub, err := plotter.NewBarChart(user, w)
		if err != nil {
			return nil, err
		}
		kb.Color, kb.LineStyle.Width = kernelColor, 0
		ub.Color, ub.LineStyle.Width = userColor, 0
		ub.StackOn(kb)
		p.Add(kb, ub)
		p.NominalX(names...)
		p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
		p.Y.Label.Text = "µs per request"
		p.Y.Label.TextStyle.Font.Size = vg.Points(8)
		ch.panels = append(ch.panels, p)
	}
	if len(ch.panels) == 0 {
		return nil, nil
	}
	for _, p := range ch.panels {
		p.Y.Min, p.Y.Max = 0, top*1.06
		p.Y.Tick.Marker = humanTicks{}
	}
	ch.add("kernel (stime)", swatch(kernelColor))
	ch.add("user (utime)", swatch(userColor))
	return ch, nil
}

// swatch is a legend thumbnail filled with c.
func swatch(c color.Color) plot.Thumbnailer {
	return &plotter.BarChart{Color: c}
}
