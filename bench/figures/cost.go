package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// wallGoal bounds the wall time of configs/grid.toml, in seconds.
const wallGoal = 300

// wallRow is a line of wall.tsv: config, measured wall seconds, the
// -dry-run estimate (a Go duration) and the number of measured windows.
type wallRow struct {
	name            string
	wall, est, wins float64
}

func readTSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" && !strings.HasPrefix(t, "#") {
			rows = append(rows, strings.Split(t, "\t"))
		}
	}
	return rows, sc.Err()
}

// seconds parses a Go duration such as "2m47s" into seconds.
func seconds(path, s string) (float64, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a duration", path, s)
	}
	return d.Seconds(), nil
}

func num(path, s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a number", path, s)
	}
	return v, nil
}

// costFigures: item 4, wall time of grid.toml, growth with grid size, and
// driver RSS over the grid run and over the long run (if any).
func costFigures(dir string) ([]figure, error) {
	const item = "4 sweep cost"
	var figs []figure
	p := filepath.Join(dir, "wall.tsv")
	if !exists(p) {
		figs = append(figs, notRun(item, "wall time")...)
	} else {
		rows, err := readTSV(p)
		if err != nil {
			return nil, err
		}
		var ws []wallRow
		for _, r := range rows {
			if len(r) != 4 {
				return nil, fmt.Errorf("%s: want 4 tab-separated fields, got %q", p, strings.Join(r, "\t"))
			}
			w := wallRow{name: r[0]}
			if w.wall, err = num(p, r[1]); err != nil {
				return nil, err
			}
			if w.est, err = seconds(p, r[2]); err != nil {
				return nil, err
			}
			if w.wins, err = num(p, r[3]); err != nil {
				return nil, err
			}
			ws = append(ws, w)
			f := figure{item: item, name: "wall time of " + w.name, value: fmt.Sprintf("%.0f s", w.wall),
				note: fmt.Sprintf("-dry-run estimate %.0f s; %.0f measured windows; wall/estimate %.3f", w.est, w.wins, w.wall/w.est)}
			if w.name == "configs/grid.toml" {
				f.goal, f.met = fmt.Sprintf("≤ %d s", wallGoal), verdict(w.wall <= wallGoal)
			}
			figs = append(figs, f)
		}
		if len(ws) >= 2 {
			a, b := ws[0], ws[len(ws)-1]
			// wall = k·estimate + fixed: from the two runs.
			k := (b.wall - a.wall) / (b.est - a.est)
			fixed := a.wall - k*a.est
			figs = append(figs, figure{item: item, name: "growth with grid size",
				value: fmt.Sprintf("wall ≈ %.3f × estimate %+.1f s", k, fixed), goal: "linear",
				met:  verdict(k > 0.9 && k < 1.2 && fixed < 30),
				note: fmt.Sprintf("from %s and %s; the estimate is slots × levels × (warmup + rounds × duration), linear in grid points", a.name, b.name)})
		}
	}
	if p := filepath.Join(dir, "dryrun.tsv"); exists(p) {
		rows, err := readTSV(p)
		if err != nil {
			return nil, err
		}
		var parts []string
		for _, r := range rows {
			if len(r) != 4 {
				return nil, fmt.Errorf("%s: want config, slots, windows, estimate; got %q", p, strings.Join(r, "\t"))
			}
			est, err := seconds(p, r[3])
			if err != nil {
				return nil, err
			}
			wins, err := num(p, r[2])
			if err != nil {
				return nil, err
			}
			parts = append(parts, fmt.Sprintf("%s: %s slots, %.0f windows, %.0f s (%.2f s/window)", filepath.Base(r[0]), r[1], wins, est, est/wins))
		}
		figs = append(figs, figure{item: item, name: "-dry-run estimates", value: strings.Join(parts, "; ")})
	}
	for _, rss := range []struct{ file, what string }{{"rss-grid.tsv", "driver RSS during configs/grid.toml"}, {"rss-long.tsv", "driver RSS, long run"}} {
		p := filepath.Join(dir, rss.file)
		if !exists(p) {
			if rss.file == "rss-grid.tsv" {
				figs = append(figs, notRun(item, rss.what)...)
			}
			continue
		}
		f, err := rssFigure(p)
		if err != nil {
			return nil, err
		}
		f.item, f.name = item, rss.what
		figs = append(figs, f)
	}
	return figs, nil
}

// rssFigure summarises samples "elapsed_s<TAB>rss_kB": first, max and last,
// and the growth from the middle third of the run to the last third (the
// first third holds the start-up, while the heap reaches its steady size).
func rssFigure(path string) (figure, error) {
	rows, err := readTSV(path)
	if err != nil {
		return figure{}, err
	}
	var t, kb []float64
	for _, r := range rows {
		if len(r) != 2 {
			return figure{}, fmt.Errorf("%s: want elapsed_s<TAB>rss_kB, got %q", path, strings.Join(r, "\t"))
		}
		a, err := num(path, r[0])
		if err != nil {
			return figure{}, err
		}
		b, err := num(path, r[1])
		if err != nil {
			return figure{}, err
		}
		t, kb = append(t, a), append(kb, b)
	}
	if len(kb) < 3 {
		return figure{}, fmt.Errorf("%s: %d samples, want at least 3", path, len(kb))
	}
	third := len(kb) / 3
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	early, late := mean(kb[third:len(kb)-third]), mean(kb[len(kb)-third:])
	peak := kb[0]
	for _, v := range kb {
		peak = max(peak, v)
	}
	growth := late/early - 1
	return figure{
		value: fmt.Sprintf("%.1f → %.1f MiB (max %.1f)", kb[0]/1024, kb[len(kb)-1]/1024, peak/1024),
		goal:  "bounded, no growth", met: verdict(growth < 0.05),
		note: fmt.Sprintf("%d samples every 10 s over %.0f s; last third vs middle third %s", len(kb), t[len(t)-1]-t[0], pct(growth)),
	}, nil
}
