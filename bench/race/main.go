// Command bench-race measures the race rules of load.rounds = "race"
// (package race) in simulation (package racesim): over -runs seeded runs
// per case it counts how often the unique best config was eliminated,
// how often a within-ε stop was false, how often the confirmation called
// a false verdict (and how many true ones it called), how far the pick
// was from the best, and, with all configs tied, how often any config
// (and each config) was dropped; and it compares the windows a race plus
// its confirmation took with rounds = "auto" on the same field
// (-auto-runs runs). The rules: issue 32's (the driver's today), issue
// 41's (race.Mixture with the t confirmation), and issue 41's with
// halved windows and one A/A twin a round (racesim.Settings.Halved),
// whose tie runs are also made with halves correlated 0.3.
//
//	bench-race [-runs 2000] [-auto-runs 200] [-seed 1] [-rules 32,41,halved] [-control=true]
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/sweep-dev/sweep/sweep/race"
	"github.com/sweep-dev/sweep/sweep/race/racesim"
)

// rule is one rule's settings, named.
type rule struct {
	name string
	s    racesim.Settings
}

func main() {
	runs := flag.Int("runs", 2000, "simulated runs per case")
	autoRuns := flag.Int("auto-runs", 200, "simulated rounds = \"auto\" runs per noise model (0: none)")
	seed := flag.Uint64("seed", 1, "seed of the first run (run k uses seed+k)")
	only := flag.String("rules", "32,41,halved", "the rules to run: 32 (issue 32's), 41 (race.Mixture + t), halved")
	control := flag.Bool("control", true, "run the F-Race control")
	flag.Parse()
	s := racesim.Defaults()
	fmt.Printf("bench-race %s: %d runs per case, seeds %d..%d; %s; clip %.0f%%, ε %.0f%%, %d finalists, max %d rounds, blocks of %d, %d levels\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), *runs, *seed, *seed+uint64(*runs)-1,
		race.Split(s.Confidence), 100*s.Clip, 100*s.Resolve, s.Finalists, s.MaxRounds, s.BlockSize, s.Levels)
	var rules []rule
	for _, r := range []struct {
		key string
		r   rule
	}{
		{"32", rule{"issue 32 (today)", s}},
		{"41", rule{"issue 41: mixture + t", s.Mixture()}},
		{"halved", rule{"issue 41, halved windows, 1 twin", s.Mixture().Halved()}},
	} {
		if slices.Contains(strings.Split(*only, ","), r.key) {
			rules = append(rules, r.r)
		}
	}
	models := []racesim.Noise{racesim.T3Slow(), racesim.T2Outliers(), racesim.OneNoisy(1)}
	fmt.Println("\n64-config grid (best −10%, 4 within 2%, the rest 3–30% worse):")
	fmt.Println("| rule | noise | best dropped | 3 SE | false within-ε | confirmation false | confirmation power | pick within 2% | stop: field / ε / stalled / max | windows race+confirm (median, p90) | race, confirm (medians) | ÷ today | ÷ floor 54 |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	today := map[string]int{}
	for _, r := range rules {
		for _, n := range models {
			m := row(r, n, racesim.Issue64(), *runs, *seed, today[n.Name])
			if r.s.Rule == nil {
				today[n.Name] = m // issue 32's, the ratios' base
			}
		}
	}
	if *autoRuns > 0 {
		fmt.Printf("\nrounds = \"auto\" on the same grid (median of %d runs): ", *autoRuns)
		for _, n := range models {
			fmt.Printf("%s %d; ", n.Name, autoMedian(n, racesim.Issue64(), s, *autoRuns, *seed))
		}
		fmt.Println()
	}
	fmt.Println("\n24 identical configs (every drop is false; α_E bounds each config's rate):")
	fmt.Println("| rule | noise | runs with any drop | worst config's drop rate | bound α_E + 3 SE | false within-ε | confirmation false | windows race+confirm (median) |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, r := range rules {
		for _, n := range models {
			tied(r, n, *runs, *seed)
		}
	}
	for _, r := range rules {
		if !r.s.Halves {
			continue
		}
		for _, n := range models {
			n.HalfCorr = 0.3
			n.Name += ", halves ρ 0.3"
			tied(r, n, *runs, *seed)
		}
	}
	if !*control {
		return
	}
	fmt.Println("\nControl: an irace-style F-Race (Friedman test from round 5, Conover post-hoc, α = 5% at every look, no correction):")
	fmt.Println("| noise | 64-config grid: best dropped | 24 identical: runs with any drop |")
	fmt.Println("|---|---|---|")
	for _, n := range models {
		best, tiedAny := 0, 0
		for k := range *runs {
			d, _ := racesim.FriedmanRace(rand.New(rand.NewPCG(*seed+uint64(k), 32)), racesim.Issue64(), n, s)
			best += b2i(slices.Contains(d, racesim.Issue64().Best()))
			d, _ = racesim.FriedmanRace(rand.New(rand.NewPCG(*seed+uint64(k), 32)), racesim.Tied(24), n, s)
			tiedAny += b2i(len(d) > 0)
		}
		fmt.Printf("| %s | %d of %d (%.1f%%) | %d of %d (%.1f%%) |\n", n.Name, best, *runs, 100*float64(best)/float64(*runs), tiedAny, *runs, 100*float64(tiedAny)/float64(*runs))
	}
}

// row prints one rule's line on field f under n and returns its median
// windows; base is today's median for the ratio (0: this is today's).
func row(r rule, n racesim.Noise, f racesim.Field, runs int, seed uint64, base int) int {
	var drop, within, conf, pick, tests, called int
	stops := map[race.StopReason]int{}
	var ws, rw, cw []int
	for k := range runs {
		rng := rand.New(rand.NewPCG(seed+uint64(k), 32))
		res, err := racesim.Race(rng, f, n, r.s)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		drop += b2i(res.BestDropped)
		within += b2i(res.FalseWithin)
		conf += b2i(res.ConfirmFalse)
		pick += b2i(res.PickGap <= 0.02)
		tests += res.ConfirmTests
		called += res.ConfirmCalled
		stops[res.Stop.Reason]++
		ws = append(ws, res.Windows())
		rw = append(rw, res.RaceWindows)
		cw = append(cw, res.ConfirmWindows)
	}
	p := float64(drop) / float64(runs)
	se := math.Sqrt(math.Max(p, 1.0/float64(runs)) * (1 - p) / float64(runs))
	m := quant(ws, 0.5)
	ratio := "—"
	if base > 0 {
		ratio = fmt.Sprintf("%.2f", float64(m)/float64(base))
	}
	fmt.Printf("| %s | %s | %d of %d (%.2f%%) | %.2f%% | %d | %d | %.0f%% | %d of %d | %d / %d / %d / %d | %d, %d | %d, %d | %s | %.1f |\n",
		r.name, n.Name, drop, runs, 100*p, 300*se, within, conf, 100*float64(called)/float64(max(tests, 1)), pick, runs,
		stops[race.StopField], stops[race.StopWithin], stops[race.StopStalled], stops[race.StopMaxRounds],
		m, quant(ws, 0.9), quant(rw, 0.5), quant(cw, 0.5), ratio, float64(m)/54)
	return m
}

func tied(r rule, n racesim.Noise, runs int, seed uint64) {
	f := racesim.Tied(24)
	per := make([]int, len(f))
	var anyDrop, within, conf int
	var ws []int
	for k := range runs {
		rng := rand.New(rand.NewPCG(seed+uint64(k), 32))
		res, err := racesim.Race(rng, f, n, r.s)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		anyDrop += b2i(len(res.Dropped) > 0)
		for _, i := range res.Dropped {
			per[i]++
		}
		within += b2i(res.FalseWithin)
		conf += b2i(res.ConfirmFalse)
		ws = append(ws, res.Windows())
	}
	a := race.Split(r.s.Confidence).Drop
	bound := a + 3*math.Sqrt(a*(1-a)/float64(runs))
	fmt.Printf("| %s | %s | %d of %d | %.2f%% | %.2f%% | %d | %d | %d |\n", r.name, n.Name, anyDrop, runs,
		100*float64(slices.Max(per))/float64(runs), 100*bound, within, conf, quant(ws, 0.5))
}

func autoMedian(n racesim.Noise, f racesim.Field, s racesim.Settings, runs int, seed uint64) int {
	var ws []int
	for k := range runs {
		ws = append(ws, racesim.Auto(rand.New(rand.NewPCG(seed+uint64(k), 64)), f, n, s))
	}
	return quant(ws, 0.5)
}

func quant(xs []int, q float64) int {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
