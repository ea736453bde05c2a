// Command bench-race measures the race rule of load.rounds = "race"
// (package race) in simulation (package racesim): over -runs seeded runs
// per case it counts how often the unique best config was eliminated,
// how often a within-ε stop was false, how often the confirmation called
// a false verdict, how far the pick was from the best, and, with all
// configs tied, how often any config (and each config) was dropped; and
// it compares the windows a race plus its confirmation took with
// rounds = "auto" on the same field (-auto-runs runs).
//
//	bench-race [-runs 2000] [-auto-runs 200] [-seed 1]
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/sweep-dev/sweep/sweep/race"
	"github.com/sweep-dev/sweep/sweep/race/racesim"
)

func main() {
	runs := flag.Int("runs", 2000, "simulated runs per case")
	autoRuns := flag.Int("auto-runs", 200, "simulated rounds = \"auto\" runs per noise model (0: none)")
	seed := flag.Uint64("seed", 1, "seed of the first run (run k uses seed+k)")
	flag.Parse()
	s := racesim.Defaults()
	fmt.Printf("bench-race %s: %d runs per case, seeds %d..%d; %s; clip %.0f%%, ε %.0f%%, %d finalists, max %d rounds, blocks of %d, %d levels\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), *runs, *seed, *seed+uint64(*runs)-1,
		race.Split(s.Confidence), 100*s.Clip, 100*s.Resolve, s.Finalists, s.MaxRounds, s.BlockSize, s.Levels)
	models := []racesim.Noise{racesim.T3Slow(), racesim.T2Outliers(), racesim.OneNoisy(1)}
	fmt.Println("\n64-config grid (best −10%, 4 within 2%, the rest 3–30% worse):")
	fmt.Println("| noise | best dropped | 3 SE | false within-ε | confirmation false | pick within 2% | stop: field / ε / max | windows race+confirm (median, p90) | auto windows (median) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, n := range models {
		row(n, racesim.Issue64(), s, *runs, *autoRuns, *seed)
	}
	fmt.Println("\n24 identical configs (every drop is false; α_E bounds each config's rate):")
	fmt.Println("| noise | runs with any drop | worst config's drop rate | false within-ε | confirmation false | windows race+confirm (median) | auto windows (median) |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, n := range models {
		tied(n, s, *runs, *autoRuns, *seed)
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

func row(n racesim.Noise, f racesim.Field, s racesim.Settings, runs, autoRuns int, seed uint64) {
	var drop, within, conf, pick int
	stops := map[race.StopReason]int{}
	var ws []int
	for k := range runs {
		rng := rand.New(rand.NewPCG(seed+uint64(k), 32))
		r, err := racesim.Race(rng, f, n, s)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		drop += b2i(r.BestDropped)
		within += b2i(r.FalseWithin)
		conf += b2i(r.ConfirmFalse)
		pick += b2i(r.PickGap <= 0.02)
		stops[r.Stop.Reason]++
		ws = append(ws, r.Windows())
	}
	p := float64(drop) / float64(runs)
	se := math.Sqrt(math.Max(p, 1.0/float64(runs)) * (1 - p) / float64(runs))
	fmt.Printf("| %s | %d of %d (%.2f%%) | %.2f%% | %d | %d | %d of %d | %d / %d / %d | %d, %d | %s |\n",
		n.Name, drop, runs, 100*p, 300*se, within, conf, pick, runs,
		stops[race.StopField], stops[race.StopWithin], stops[race.StopMaxRounds],
		quant(ws, 0.5), quant(ws, 0.9), autoText(n, f, s, autoRuns, seed))
}

func tied(n racesim.Noise, s racesim.Settings, runs, autoRuns int, seed uint64) {
	f := racesim.Tied(24)
	per := make([]int, len(f))
	var anyDrop, within, conf int
	var ws []int
	for k := range runs {
		rng := rand.New(rand.NewPCG(seed+uint64(k), 32))
		r, err := racesim.Race(rng, f, n, s)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		anyDrop += b2i(len(r.Dropped) > 0)
		for _, i := range r.Dropped {
			per[i]++
		}
		within += b2i(r.FalseWithin)
		conf += b2i(r.ConfirmFalse)
		ws = append(ws, r.Windows())
	}
	fmt.Printf("| %s | %d of %d | %.2f%% | %d | %d | %d | %s |\n", n.Name, anyDrop, runs,
		100*float64(slices.Max(per))/float64(runs), within, conf, quant(ws, 0.5), autoText(n, f, s, autoRuns, seed))
}

func autoText(n racesim.Noise, f racesim.Field, s racesim.Settings, runs int, seed uint64) string {
	if runs == 0 {
		return "—"
	}
	var ws []int
	for k := range runs {
		ws = append(ws, racesim.Auto(rand.New(rand.NewPCG(seed+uint64(k), 64)), f, n, s))
	}
	return fmt.Sprintf("%d (%d runs)", quant(ws, 0.5), runs)
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
