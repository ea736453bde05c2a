package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/results"
	"github.com/sweep-dev/sweep/sweep/rundir"
	"github.com/sweep-dev/sweep/sweep/shard"
	"github.com/sweep-dev/sweep/sweep/summarize"
)

// raceGrid is a race of burner builds at one level: 200us the best,
// 210us within 5% of it, the baseline 300us, and 900us and 1500us
// clearly worse.
func raceGrid(extra string) string {
	return fmt.Sprintf(`
name = "race"
[target]
kind = "command"
command = [%q, "-port", "{{port}}", "-burn", "{{burn}}"]
[grid]
burn = ["300us", "200us", "210us", "900us", "1500us"]
[load]
concurrency = [1]
warmup = "100ms"
duration = "300ms"
rounds = "race"
max_rounds = 20
[analysis]
finalists = 2
%s`, bins.burner, extra)
}

// TestRaceBurner: real servers, real load, in blocks of 2 dealt again
// every round (checkDealt). The clearly worse builds are
// eliminated (verdict "eliminated", a cell at the target from their race
// windows, a reason naming the round), the best is a finalist, the
// finalists' verdicts come from confirmation rounds only (no race window
// among them, numbered from max_rounds), and the race block states the
// error budget; a replay of the windows makes the same decisions.
func TestRaceBurner(t *testing.T) {
	dir, s, ws := run(t, burnerBlocks())
	rc := s.Race
	if rc == nil {
		t.Fatal("no race block in summary.json")
	}
	t.Logf("race: %+v", rc)
	if got := rc.Alpha.Drop + rc.Alpha.Within + rc.Alpha.Confirm; got < 0.0499 || got > 0.0501 {
		t.Errorf("error budget adds up to %g, want 1 − confidence = 0.05", got)
	}
	reasons := map[string]sweep.RaceConfig{}
	for _, e := range rc.Configs {
		reasons[e.Config] = e
	}
	for _, bad := range []string{"burn=900us", "burn=1500us"} {
		e := reasons[bad]
		if e.Reason != "eliminated" || e.DroppedAt < 1 || e.EAtDrop < 1/rc.Alpha.Drop {
			t.Errorf("%s: %+v, want eliminated with E ≥ 1/α_E", bad, e)
		}
		c := cell(t, s, bad, 1)
		if d := c.VsBaseline[sweep.MetricCPUPerReq]; d.Verdict != sweep.VerdictEliminated || d.CILow != nil || d.Median < 1 {
			t.Errorf("%s: %+v, want verdict eliminated, no interval, the median change of a 3× build", bad, d)
		}
	}
	if reasons["burn=200us"].Reason != "finalist" {
		t.Errorf("the best build: %+v, want a finalist (finalists %v)", reasons["burn=200us"], rc.Finalists)
	}
	if len(rc.Finalists) > 2 || rc.ConfirmRounds < 2 {
		t.Errorf("finalists %v, %d confirmation rounds", rc.Finalists, rc.ConfirmRounds)
	}
	best := cell(t, s, "burn=200us", 1)
	if best.Rounds != rc.ConfirmRounds {
		t.Errorf("the best's cell has %d rounds, want the %d confirmation rounds only", best.Rounds, rc.ConfirmRounds)
	}
	if d := best.VsBaseline[sweep.MetricCPUPerReq]; d.Verdict != sweep.VerdictBetter {
		t.Errorf("200us vs 300us in confirmation: %+v, want better", d)
	}
	raced, confirmed := 0, 0
	for _, w := range ws {
		if w.Race {
			raced++
			if w.Round >= 20 {
				t.Errorf("race window in round %d ≥ max_rounds", w.Round)
			}
		} else {
			confirmed++
			if w.Round < 20 {
				t.Errorf("confirmation window in round %d < max_rounds", w.Round)
			}
		}
	}
	if raced == 0 || confirmed == 0 {
		t.Errorf("%d race and %d confirmation windows", raced, confirmed)
	}
	// The decisions are a function of results.jsonl.
	ws2, err := results.Read(rundir.Dir(dir).Results())
	if err != nil {
		t.Fatal(err)
	}
	again := summarize.Summary(summarize.Head(s), ws2)
	if !reflect.DeepEqual(again.Race, rc) || !reflect.DeepEqual(again.Cells, s.Cells) {
		t.Errorf("replay differs:\n%+v\nvs\n%+v", again.Race, rc)
	}
	checkDealt(t, s, ws)
}

// burnerBlocks is raceGrid in blocks of 2, the best build in the grid's
// second block.
func burnerBlocks() string {
	return strings.Replace(raceGrid("[run]\nblock_size = 2\n"), `"300us", "200us", "210us", "900us", "1500us"`, `"300us", "900us", "1500us", "200us", "210us"`, 1)
}

// TestRaceResume: a race interrupted after its first rounds goes on from
// results.jsonl: the windows on disk are kept, not measured again, and
// the decisions replayed from them; the run ends complete.
func TestRaceResume(t *testing.T) {
	dir := t.TempDir()
	toml := strings.Replace(strings.Replace(raceGrid(""), `"210us", "900us", `, "", 1), "finalists = 2", "finalists = 1", 1)
	cfg := loadConfig(t, dir, toml)
	out := filepath.Join(dir, "run")
	resPath := rundir.Dir(out).Results()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // cancel once two race rounds are on disk
		defer cancel()
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if ws, err := results.Read(resPath); err == nil && len(ws) >= 8 {
				return
			}
		}
	}()
	if _, err := Run(ctx, Options{Config: cfg, Dir: out, Exe: bins.sweep}); !errors.Is(err, context.Canceled) {
		t.Fatalf("first part: %v, want cancelled", err)
	}
	first, err := results.Read(resPath)
	if err != nil {
		t.Fatal(err)
	}
	oc, err := Run(context.Background(), Options{Config: cfg, Dir: out, Exe: bins.sweep, Resume: true})
	if err != nil || !oc.Complete {
		t.Fatalf("resume: %+v, %v", oc, err)
	}
	ws, err := results.Read(resPath)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ws[:len(first)], first) {
		t.Error("the resumed run changed the windows measured before the interrupt")
	}
	bySlot(t, ws) // no key measured twice
	s, err := rundir.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	if rs := s.Race; rs.Stop != sweep.StopField || !reflect.DeepEqual(rs.Finalists, []string{"burn=200us"}) {
		t.Errorf("resumed race: stop %q, finalists %v; want field, [burn=200us] (%+v)", rs.Stop, rs.Finalists, rs)
	}
	if again := summarize.Summary(summarize.Head(s), ws).Race; !reflect.DeepEqual(again, s.Race) {
		t.Errorf("the resumed race's summary is not what its windows give:\n%+v\nvs\n%+v", s.Race, again)
	}
}

func TestRaceShardRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := loadConfig(t, dir, raceGrid(""))
	_, err := Run(context.Background(), Options{Config: cfg, Dir: filepath.Join(dir, "run"), Exe: bins.sweep, Shard: shard.Spec{Index: 0, Count: 2}})
	if !errors.Is(err, ErrRaceShard) {
		t.Errorf("Run with a shard: %v, want ErrRaceShard", err)
	}
	if _, err := os.Stat(rundir.Dir(filepath.Join(dir, "run")).Results()); err == nil {
		t.Error("a refused run wrote results")
	}
}

// TestRaceBuiltin races the built-in Wasmtime host: with 64 KiB dirtied
// per request, keep_resident 0 (a page fault per page, every request) is
// clearly worse than 64KiB and is eliminated; the two others are the
// finalists and are confirmed.
func TestRaceBuiltin(t *testing.T) {
	_, s, _ := run(t, `
name = "race-builtin"
[target]
kind = "builtin"
[workload]
touch = "64KiB"
[grid]
linear_memory_keep_resident = [0, "64KiB", "256KiB"]
[baseline]
linear_memory_keep_resident = "64KiB"
[load]
concurrency = [1]
warmup = "200ms"
duration = "400ms"
rounds = "race"
max_rounds = 20
[analysis]
finalists = 2
`)
	if s.Race == nil {
		t.Fatal("no race block")
	}
	t.Logf("race: %+v", s.Race)
	var zero sweep.RaceConfig
	for _, e := range s.Race.Configs {
		if e.Config == "linear_memory_keep_resident=0" {
			zero = e
		}
	}
	if zero.Reason != "eliminated" {
		t.Errorf("keep_resident 0: %+v, want eliminated", zero)
	}
	d := cell(t, s, "linear_memory_keep_resident=0", 1).VsBaseline[sweep.MetricCPUPerReq]
	if d.Verdict != sweep.VerdictEliminated || d.Median < 0.2 {
		t.Errorf("keep_resident 0 vs 64KiB: %+v, want eliminated at more than +20%% CPU/req", d)
	}
	if len(s.Race.Finalists) != 2 {
		t.Errorf("finalists %v, want 64KiB and 256KiB", s.Race.Finalists)
	}
	if c := cell(t, s, "linear_memory_keep_resident=256KiB", 1); c.Rounds != s.Race.ConfirmRounds {
		t.Errorf("256KiB: %d rounds, want the %d confirmation rounds", c.Rounds, s.Race.ConfirmRounds)
	}
}

// TestRaceBudget: a run.budget already spent after the first race round
// stops the race there (the confirmation's time is reserved), the report
// says the best is among the survivors, and the finalists are confirmed.
func TestRaceBudget(t *testing.T) {
	_, s, ws := run(t, raceGrid("[run]\nbudget = \"1s\"\n"))
	if s.Race == nil || s.Race.Stop != "budget" || s.Race.Rounds != 1 {
		t.Fatalf("race %+v, want stopped by the budget after 1 round", s.Race)
	}
	left := 0
	for _, e := range s.Race.Configs {
		if e.Reason == sweep.RaceFinalist || e.Reason == sweep.RaceUnconfirmed {
			left++
		}
	}
	if left != 5 {
		t.Errorf("%d configs left when the budget stopped the race, want all 5 (%+v)", left, s.Race.Configs)
	}
	if len(s.Race.Finalists) != 2 {
		t.Errorf("finalists %v, want 2", s.Race.Finalists)
	}
	// The survivors left out of the finalists were never shown worse:
	// "unconfirmed", with race data and a warning saying so, never
	// "eliminated".
	unconfirmed := 0
	for _, e := range s.Race.Configs {
		if e.Reason != sweep.RaceUnconfirmed || e.Config == s.Baseline {
			continue
		}
		unconfirmed++
		found := false
		for _, c := range s.Cells {
			if c.Config != e.Config {
				continue
			}
			found = true
			if d := c.VsBaseline[sweep.MetricCPUPerReq]; d.Verdict != sweep.VerdictUnconfirmed || d.CILow != nil {
				t.Errorf("%s c=%d: verdict %q (interval %v), want %q without an interval", c.Config, c.Concurrency, d.Verdict, d.CILow, sweep.VerdictUnconfirmed)
			}
			if !slices.ContainsFunc(c.Warnings, func(w sweep.Warning) bool {
				return w.Code == sweep.WarnUnconfirmed && strings.Contains(w.Message, "never shown worse")
			}) {
				t.Errorf("%s c=%d: warnings %v lack %q", c.Config, c.Concurrency, c.Warnings, sweep.WarnUnconfirmed)
			}
		}
		if !found {
			t.Errorf("survivor %s has no cell", e.Config)
		}
	}
	if unconfirmed == 0 {
		t.Errorf("race %+v left no survivor out of the finalists: the test checks nothing", s.Race.Configs)
	}
	confirmed := 0
	for _, w := range ws {
		if !w.Race {
			confirmed++
		}
	}
	if want := 4 * s.Race.ConfirmRounds; confirmed != want {
		t.Errorf("%d confirmation windows, want %d (2 finalists, baseline, twin)", confirmed, want)
	}
}

// checkDealt checks that a race with run.block_size = 2 dealt the
// survivors into blocks again before every round: each race round has as
// many blocks as its candidates need, each with the baseline and its A/A
// twin, and the candidates, in slot order, are dealt evenly into them
// (burn=200us, in the grid's second block, moves to the first once
// burn=900us or burn=1500us is gone).
func checkDealt(t *testing.T, s sweep.Summary, ws []sweep.Window) {
	t.Helper()
	type rb struct{ round, block int }
	fixed := map[rb]int{}
	cands := map[int][]sweep.Window{}
	for _, w := range ws {
		switch {
		case !w.Race:
		case w.Baseline || w.AA:
			fixed[rb{w.Round, w.Block}]++
		default:
			cands[w.Round] = append(cands[w.Round], w)
		}
	}
	moved := false
	for k, cs := range cands {
		slices.SortFunc(cs, func(a, b sweep.Window) int { return a.Slot - b.Slot })
		nb := (len(cs) + 1) / 2
		next := 0
		for b := range nb {
			if fixed[rb{k, b}] != 2 {
				t.Errorf("race round %d block %d: %d baseline/twin windows, want 2", k, b, fixed[rb{k, b}])
			}
			n := len(cs) / nb
			if b < len(cs)%nb {
				n++
			}
			for _, w := range cs[next : next+n] {
				if w.Block != b {
					t.Errorf("race round %d: %s in block %d, want %d (%d candidates)", k, w.Config, w.Block, b, len(cs))
				}
				if w.Config == "burn=200us" && b == 0 {
					moved = true
				}
			}
			next += n
		}
		if fixed[rb{k, nb}] != 0 {
			t.Errorf("race round %d: a block %d beyond the %d needed", k, nb, nb)
		}
	}
	if !moved {
		t.Errorf("burn=200us never raced in the first block (race: %+v)", s.Race)
	}
}
