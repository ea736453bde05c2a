// Command bench-racereal reads the real runs of bench/run.sh race-real
// (issue 32's acceptance runs) and prints the figures of BENCHMARKS.md:
// over the planted runs (bench/race24.toml) how often the planted best
// was eliminated, how far each pick was from it, and the wall time of
// the races against rounds = "auto" on the same grid in the same
// session; over the tie runs (bench/race24-tied.toml) how many runs
// dropped any build and the most any one build was dropped.
//
// Each run is a directory OUT/race24-{race,auto,tied}-NN holding the
// run's summary.json and results.jsonl and wall.txt (its wall time in
// seconds, written by run.sh).
//
//	bench-racereal OUT
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/rundir"
)

// best is the planted best build's label, bestBurn its burn in µs.
const (
	best     = "burn=188us"
	bestBurn = 188.0
)

type run struct {
	dir     string
	s       sweep.Summary
	wall    float64
	windows int
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: bench-racereal OUT")
		os.Exit(2)
	}
	out := os.Args[1]
	kinds := map[string][]run{}
	for _, k := range []string{"race", "auto", "tied"} {
		dirs, _ := filepath.Glob(filepath.Join(out, "race24-"+k+"-*"))
		slices.Sort(dirs)
		for _, d := range dirs {
			r, err := read(d)
			if err != nil {
				fmt.Fprintf(os.Stderr, "bench-racereal: %s: %v (skipped)\n", d, err)
				continue
			}
			kinds[k] = append(kinds[k], r)
		}
	}
	planted(kinds["race"], kinds["auto"])
	tied(kinds["tied"])
}

func read(dir string) (run, error) {
	s, err := rundir.ReadSummary(dir)
	if err != nil {
		return run{}, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "wall.txt"))
	if err != nil {
		return run{}, err
	}
	wall, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil {
		return run{}, fmt.Errorf("wall.txt: %w", err)
	}
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
	if err != nil {
		return run{}, err
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) > 0 {
			n++
		}
	}
	return run{dir: dir, s: s, wall: wall, windows: n}, sc.Err()
}

var burnRe = regexp.MustCompile(`burn=(\d+)us`)

// pick is the run's recommended config, or the race's leader without one.
func pick(s sweep.Summary) string {
	if s.Recommendation != nil {
		return s.Recommendation.Config
	}
	if s.Race != nil {
		return s.Race.Leader
	}
	return ""
}

// gap is how much more the pick burns than the planted best (−1 when
// the label names no burn).
func gap(label string) float64 {
	m := burnRe.FindStringSubmatch(label)
	if m == nil {
		return -1
	}
	b, _ := strconv.ParseFloat(m[1], 64)
	return b/bestBurn - 1
}

func eliminated(s sweep.Summary) []string {
	var out []string
	if s.Race == nil {
		return nil
	}
	for _, c := range s.Race.Configs {
		if c.Reason == sweep.RaceEliminated {
			out = append(out, c.Config)
		}
	}
	return out
}

func planted(races, autos []run) {
	fmt.Printf("Planted grid (bench/race24.toml): %d race runs, %d auto runs\n\n", len(races), len(autos))
	fmt.Println("| run | wall s | windows | rounds | stop | survivors per round | pick | pick vs best | best eliminated |")
	fmt.Println("|---|---:|---:|---:|---|---|---|---:|---|")
	bestGone, far := 0, 0
	var rw, aw []float64
	var rwin, awin []int
	for _, r := range races {
		p := pick(r.s)
		g := gap(p)
		gone := slices.Contains(eliminated(r.s), best)
		bestGone += b2i(gone)
		far += b2i(g < 0 || g > 0.02)
		rw = append(rw, r.wall)
		rwin = append(rwin, r.windows)
		rounds, stop, surv := 0, "", ""
		if r.s.Race != nil {
			rounds, stop, surv = r.s.Race.Rounds, string(r.s.Race.Stop), fmt.Sprint(r.s.Race.Survivors)
		}
		fmt.Printf("| %s | %.0f | %d | %d | %s | %s | %s | %+.1f%% | %v |\n", filepath.Base(r.dir), r.wall, r.windows, rounds, stop, surv, p, 100*g, gone)
	}
	for _, a := range autos {
		p := pick(a.s)
		aw = append(aw, a.wall)
		awin = append(awin, a.windows)
		fmt.Printf("| %s | %.0f | %d | — | — | — | %s | %+.1f%% | — |\n", filepath.Base(a.dir), a.wall, a.windows, p, 100*gap(p))
	}
	fmt.Printf("\nplanted best eliminated in %d of %d races; pick more than 2%% from the best in %d of %d\n", bestGone, len(races), far, len(races))
	if len(rw) > 0 && len(aw) > 0 {
		fmt.Printf("wall time: race median %.0f s (mean %.0f), auto median %.0f s (mean %.0f): race/auto %.0f%% of the medians, %.0f%% of the means; windows: race median %d, auto median %d (%.0f%%)\n",
			median(rw), mean(rw), median(aw), mean(aw), 100*median(rw)/median(aw), 100*mean(rw)/mean(aw),
			medianInt(rwin), medianInt(awin), 100*float64(medianInt(rwin))/float64(medianInt(awin)))
		fmt.Printf("slowest race %.0f s = %.0f%% of the fastest auto run (%.0f s)\n", slices.Max(rw), 100*slices.Max(rw)/slices.Min(aw), slices.Min(aw))
	}
}

func tied(runs []run) {
	if len(runs) == 0 {
		return
	}
	fmt.Printf("\nTied grid (bench/race24-tied.toml): %d runs\n\n", len(runs))
	fmt.Println("| run | wall s | windows | rounds | stop | eliminated |")
	fmt.Println("|---|---:|---:|---:|---|---|")
	anyDrop := 0
	per := map[string]int{}
	for _, r := range runs {
		e := eliminated(r.s)
		anyDrop += b2i(len(e) > 0)
		for _, c := range e {
			per[c]++
		}
		rounds, stop := 0, ""
		if r.s.Race != nil {
			rounds, stop = r.s.Race.Rounds, string(r.s.Race.Stop)
		}
		fmt.Printf("| %s | %.0f | %d | %d | %s | %s |\n", filepath.Base(r.dir), r.wall, r.windows, rounds, stop, strings.Join(e, ", "))
	}
	most, who := 0, ""
	for c, n := range per {
		if n > most || (n == most && c < who) {
			most, who = n, c
		}
	}
	if most == 0 {
		fmt.Printf("\nruns that dropped any build: 0 of %d; no build was dropped\n", len(runs))
		return
	}
	fmt.Printf("\nruns that dropped any build: %d of %d; the most-dropped build: %s, %d of %d runs\n", anyDrop, len(runs), who, most, len(runs))
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}

func medianInt(xs []int) int {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func mean(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
