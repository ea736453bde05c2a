package policy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/schedule"
)

// These tests drive policies with synthetic windows (pure logic: no
// server is measured): cost gives each config's CPU per request, with a
// seeded per-window noise, so a run is a function of its seed.

// design is a run of configs (the first the baseline) at levels, in
// blocks of size, with an A/A twin.
func design(kind Kind, configs []string, levels []int, size int) Design {
	var points []sweep.Point
	for _, c := range configs {
		points = append(points, sweep.Point{"x": c})
	}
	base := points[0].Label()
	h := sweep.Summary{
		Baseline: base, AAConfig: base + " [A/A]",
		Plan: sweep.Plan{Points: points, Concurrency: levels, Rounds: 12, Restarts: sweep.RestartsRound,
			Confidence: 0.95, TargetConc: levels[len(levels)-1], CliffRate: 0.01, BlockSize: size, Seed: 7},
	}
	switch kind {
	case KindAuto:
		h.Plan.RoundsAuto, h.Plan.Resolve, h.Plan.MinRounds, h.Plan.Rounds = true, 0.02, 8, 30
	case KindRace:
		h.Plan.Race = &sweep.RacePlan{Clip: 0.05, Epsilon: 0.02, Finalists: 2, MaxRounds: 30}
	}
	// Blocks as driver.Blocks lays them out: size candidates a block, each
	// with the baseline and its twin.
	var blocks [][]schedule.Slot
	next := 0
	for b := 0; b*size < len(points)-1; b++ {
		var slots []schedule.Slot
		add := func(s schedule.Slot) {
			s.Index, s.Block = next, b
			next++
			slots = append(slots, s)
		}
		add(schedule.Slot{Config: base, Point: points[0], Baseline: true})
		add(schedule.Slot{Config: base + " [A/A]", Point: points[0], AA: true})
		for _, p := range points[1+b*size : min(len(points), 1+(b+1)*size)] {
			add(schedule.Slot{Config: p.Label(), Point: p})
		}
		blocks = append(blocks, slots)
	}
	return Design{Head: h, Blocks: blocks}
}

// windowRSS is the synthetic window of step s: cost[x] µs per request
// (the config's x value; the twin is the baseline) times seeded noise,
// and rss[x] MiB of RSS (with 10% noise), 50 MiB for a config rss does
// not name.
func windowRSS(s schedule.Step, cost, rss map[string]float64, sd float64, seed uint64) sweep.Window {
	rng := rand.New(rand.NewPCG(seed, uint64(s.Slot.Index)<<32|uint64(s.Concurrency)<<16|uint64(s.Round+1)))
	us := cost[s.Slot.Point["x"]] * math.Exp(sd*rng.NormFloat64())
	mib, ok := rss[s.Slot.Point["x"]]
	if !ok {
		mib = 50
	}
	mib *= math.Exp(0.1 * rng.NormFloat64())
	return sweep.Window{RSSBytes: int64(mib * sweep.MiB), Config: s.Slot.Config, Point: s.Slot.Point, Slot: s.Slot.Index, Baseline: s.Slot.Baseline, AA: s.Slot.AA,
		Concurrency: s.Concurrency, Round: s.Round, Position: s.Position, Block: s.Slot.Block,
		Seconds: 1, Requests: 10000, Success: 10000, RPS: 10000, SuccessRPS: 10000, CPUUsPerReq: us, CPUSeconds: us / 100}
}

// drive runs p as the driver does: batch after batch, the steps not in
// done measured (stop: measure at most that many windows, then stop as
// an interrupt would; 0 for no limit). It returns every window on disk
// after it and the batches handed out.
func drive(t *testing.T, p Policy, disk []sweep.Window, cost map[string]float64, stop int, clk func(n int) Clock) ([]sweep.Window, [][]schedule.Step) {
	t.Helper()
	return driveRSS(t, p, disk, cost, nil, stop, clk)
}

// driveRSS is drive with rss[x] MiB of RSS (windowRSS).
func driveRSS(t *testing.T, p Policy, disk []sweep.Window, cost, rss map[string]float64, stop int, clk func(n int) Clock) ([]sweep.Window, [][]schedule.Step) {
	t.Helper()
	done := map[sweep.WindowKey]bool{}
	for _, w := range disk {
		done[w.Key()] = true
	}
	ws := append([]sweep.Window(nil), disk...)
	var batches [][]schedule.Step
	n := 0
	for range 1000 {
		c := Clock{}
		if clk != nil {
			c = clk(n)
		}
		b, err := p.Next(ws, c)
		if err != nil {
			t.Fatal(err)
		}
		if b.Stop != "" {
			return ws, batches
		}
		batches = append(batches, b.Steps)
		for _, s := range b.Steps {
			if s.Warmup || done[s.Key()] {
				continue
			}
			if stop > 0 && n == stop {
				return ws, batches
			}
			w := windowRSS(s, cost, rss, 0.02, 1)
			w.Race = b.Race
			ws = append(ws, w)
			done[w.Key()] = true
			n++
		}
	}
	t.Fatal("the policy never stopped")
	return nil, nil
}

// TestFixed: a fixed plan is one batch, every block's rounds at every
// level, then StopPlanned; Worst is that plan.
func TestFixed(t *testing.T) {
	d := design(KindFixed, []string{"a", "b", "c", "d"}, []int{1, 4}, 2)
	p, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	ws, batches := drive(t, p, nil, map[string]float64{"a": 100, "b": 90, "c": 80, "d": 110}, 0, nil)
	if len(batches) != 1 {
		t.Fatalf("%d batches, want 1", len(batches))
	}
	want := (4 + 3) * 2 * 12 // 2 blocks (baseline, twin, 2 and 1 candidates) × 2 levels × 12 rounds
	if len(ws) != want || schedule.Measured(p.Worst()) != want {
		t.Errorf("%d windows measured, worst %d; want %d", len(ws), schedule.Measured(p.Worst()), want)
	}
	if b, _ := p.Next(ws, Clock{}); b.Stop != sweep.StopPlanned || len(b.Steps) != 0 {
		t.Errorf("after the plan: %+v, want StopPlanned", b)
	}
}

// TestAutoResume: an auto run interrupted anywhere and resumed from its
// windows hands out the batches and measures the windows of the run that
// was never interrupted.
func TestAutoResume(t *testing.T) {
	cost := map[string]float64{"a": 100, "b": 101, "c": 70, "d": 100.5}
	d := design(KindAuto, []string{"a", "b", "c", "d"}, []int{1, 4}, 2)
	whole, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	all, batches := drive(t, whole, nil, cost, 0, nil)
	if len(batches) < 4+2 {
		t.Fatalf("%d batches: want the first rounds of 2 blocks × 2 levels and added rounds", len(batches))
	}
	if len(all) >= schedule.Measured(whole.Worst()) {
		t.Errorf("auto measured %d windows, its worst case %d: no level resolved early", len(all), schedule.Measured(whole.Worst()))
	}
	for _, cut := range []int{1, 37, len(all) / 2, len(all) - 1} {
		first, _ := New(d)
		disk, _ := drive(t, first, nil, cost, cut, nil)
		second, _ := New(d)
		got, _ := drive(t, second, disk, cost, 0, nil)
		if !reflect.DeepEqual(keys(got), keys(all)) {
			t.Errorf("interrupted after %d windows: %d windows after the resume, want the whole run's %d", cut, len(got), len(all))
		}
	}
}

// TestAutoBudgetReplay: run.budget ends a level's added rounds; a resumed
// run (whose clock starts again) does not add rounds to a level the
// interrupted run had left, but decides the level it was in by its own
// clock.
func TestAutoBudgetReplay(t *testing.T) {
	cost := map[string]float64{"a": 100, "b": 101, "c": 100.2}
	d := design(KindAuto, []string{"a", "b", "c"}, []int{1, 4}, 4)
	d.Budget = time.Hour
	slow := func(n int) Clock { return Clock{Elapsed: time.Duration(n) * 100 * time.Second, Windows: n} } // 100 s a window: the budget is spent after the first rounds
	p, _ := New(d)
	all, batches := drive(t, p, nil, cost, 0, slow)
	if len(batches) != 2 {
		t.Fatalf("%d batches, want the first rounds of the 2 levels only (the budget leaves no time for more)", len(batches))
	}
	cut := len(all) - 3
	first, _ := New(d)
	disk, _ := drive(t, first, nil, cost, cut, slow)
	second, _ := New(d)
	got, _ := drive(t, second, disk, cost, 0, nil) // a fresh clock: no rate yet, so no budget check
	at := func(ws []sweep.Window, conc int) []string {
		var out []sweep.Window
		for _, w := range ws {
			if w.Concurrency == conc {
				out = append(out, w)
			}
		}
		return keys(out)
	}
	if !reflect.DeepEqual(at(got, 1), at(all, 1)) {
		t.Errorf("resumed: %d windows at c=1, want the interrupted run's %d (it had moved on from c=1 at the budget)", len(at(got, 1)), len(at(all, 1)))
	}
	if len(at(got, 4)) <= len(at(all, 4)) {
		t.Errorf("resumed: %d windows at c=4: its own budget (no rate yet) should let it add rounds there", len(at(got, 4)))
	}
}

// TestRaceReplay: a race decides from its windows only: a run
// interrupted anywhere and resumed makes the decisions of the whole run,
// and ReplayRace over its windows gives the same race.
func TestRaceReplay(t *testing.T) {
	configs := []string{"base"}
	cost := map[string]float64{"base": 100}
	for i := range 10 {
		c := fmt.Sprintf("c%02d", i)
		configs = append(configs, c)
		cost[c] = 80 + 6*float64(i) // c00 −20% … c09 +34%
	}
	d := design(KindRace, configs, []int{1, 16}, 4)
	whole, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := drive(t, whole, nil, cost, 0, nil)
	rp, err := ReplayRace(d.Head, all)
	if err != nil {
		t.Fatal(err)
	}
	r := rp.Race
	if st := r.Stop(); st.Reason != sweep.StopField || len(r.Finalists()) != 2 || r.Finalists()[0] != "x=c00" && r.Finalists()[1] != "x=c00" {
		t.Errorf("race: stop %+v, finalists %v; want the field, with x=c00", st, r.Finalists())
	}
	if n := schedule.Measured(whole.Worst()); len(all) >= n {
		t.Errorf("the race measured %d windows, its worst case %d", len(all), n)
	}
	for _, cut := range []int{5, len(all) / 3, len(all) - 2} {
		first, _ := New(d)
		disk, _ := drive(t, first, nil, cost, cut, nil)
		second, _ := New(d)
		got, _ := drive(t, second, disk, cost, 0, nil)
		if !reflect.DeepEqual(keys(got), keys(all)) {
			t.Errorf("interrupted after %d windows: %d windows after the resume, want %d", cut, len(got), len(all))
		}
		again, _ := ReplayRace(d.Head, got)
		if !reflect.DeepEqual(again.Race.Entries(), r.Entries()) {
			t.Errorf("interrupted after %d windows: the replayed race differs", cut)
		}
	}
}

// keys is the windows' keys and race marks, in order.
func keys(ws []sweep.Window) []string {
	var out []string
	for _, w := range ws {
		out = append(out, fmt.Sprintf("%v %v", w.Key(), w.Race))
	}
	return out
}

// TestRaceMemoryBudget: with analysis.max_rss, a config whose race
// windows' median RSS is over it leaves the race as infeasible (outside
// the error budget), however cheap it is, and is never a finalist; the
// finalists are the best of those within the budget.
func TestRaceMemoryBudget(t *testing.T) {
	configs := []string{"base", "big1", "big2", "ok1", "ok2", "w1", "w2", "w3"}
	cost := map[string]float64{"base": 100, "big1": 70, "big2": 72, "ok1": 88, "ok2": 90, "w1": 115, "w2": 125, "w3": 140}
	rss := map[string]float64{"base": 100, "big1": 300, "big2": 280, "ok1": 150, "ok2": 160}
	d := design(KindRace, configs, []int{1, 16}, 4)
	d.Head.Plan.MaxRSS = 200 * sweep.MiB
	p, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := driveRSS(t, p, nil, cost, rss, 0, nil)
	rp, err := ReplayRace(d.Head, ws)
	if err != nil {
		t.Fatal(err)
	}
	r := rp.Race
	for _, e := range r.Entries() {
		big := e.Config == "x=big1" || e.Config == "x=big2"
		if big && (e.Reason != sweep.RaceInfeasible || !strings.Contains(e.Why, "over the memory budget at c=16: RSS") || !strings.Contains(e.Why, "> max_rss 200.0 MiB")) {
			t.Errorf("%s: %s (%q), want infeasible, over the memory budget", e.Config, e.Reason, e.Why)
		}
		if ob, ok := rp.OverBudget[e.Config]; big && (!ok || ob.Key != "max_rss" || ob.Median <= ob.Limit || ob.Windows < 1) {
			t.Errorf("%s: over budget %+v, want what showed it over max_rss", e.Config, ob)
		}
		if !big && e.Reason == sweep.RaceInfeasible {
			t.Errorf("%s infeasible (%q), but within the budget", e.Config, e.Why)
		}
	}
	if f := r.Finalists(); !slices.Equal(f, []string{"x=ok1", "x=ok2"}) {
		t.Errorf("finalists %v, want the best two within the budget [x=ok1 x=ok2]", f)
	}
}
