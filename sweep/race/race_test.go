package race

import (
	"errors"
	"math"
	"testing"
)

func params() Params {
	b := Split(0.95)
	return Params{AlphaE: b.Drop, AlphaS: b.Within, Clip: 0.05, Epsilon: 0.02, Finalists: 1, MaxRounds: 50}
}

func TestSplit(t *testing.T) {
	for _, conf := range []float64{0.5, 0.9, 0.95, 0.99} {
		b := Split(conf)
		if got := b.Drop + b.Within + b.Confirm; math.Abs(got-(1-conf)) > 1e-12 {
			t.Errorf("Split(%g) adds up to %g, want %g", conf, got, 1-conf)
		}
		if b.Drop <= 0 || b.Within <= 0 || b.Confirm <= 0 {
			t.Errorf("Split(%g) = %+v: every share must be positive", conf, b)
		}
	}
	if got, want := Split(0.95).String(), "α = 5%: dropping the best 2%, a false within-ε stop 1%, confirmation verdicts 2%"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestParamsCheck(t *testing.T) {
	ok := params()
	for _, tc := range []struct {
		name string
		mod  func(*Params)
	}{
		{"alphaE zero", func(p *Params) { p.AlphaE = 0 }},
		{"alphaS one", func(p *Params) { p.AlphaS = 1 }},
		{"clip zero", func(p *Params) { p.Clip = 0 }},
		{"epsilon NaN", func(p *Params) { p.Epsilon = math.NaN() }},
		{"no finalists", func(p *Params) { p.Finalists = 0 }},
		{"no rounds", func(p *Params) { p.MaxRounds = 0 }},
	} {
		p := ok
		tc.mod(&p)
		if _, err := New([]string{"a", "b"}, p); !errors.Is(err, ErrParams) {
			t.Errorf("%s: New = %v, want ErrParams", tc.name, err)
		}
	}
	if _, err := New([]string{"a", "a"}, ok); !errors.Is(err, ErrParams) {
		t.Errorf("duplicate config: %v, want ErrParams", err)
	}
	if _, err := New([]string{"a"}, ok); !errors.Is(err, ErrParams) {
		t.Errorf("one config: %v, want ErrParams", err)
	}
}

// TestBettorNull: with observations of mean 0 or below the bet is 0 or
// the wealth shrinks; with a clear positive mean it grows past 1/α.
func TestBettor(t *testing.T) {
	for _, tc := range []struct {
		name string
		ys   []float64
		grow bool
	}{
		{"all negative", repeat(-0.5, 40), false},
		{"alternating", alternate(0.5, 40), false},
		{"clear positive", repeat(0.6, 40), true},
		{"clipped big", repeat(5, 40), true},
	} {
		var b Bettor
		for _, y := range tc.ys {
			if l := b.Lambda(); l < 0 || l > MaxBet {
				t.Fatalf("%s: λ = %g outside [0, %g]", tc.name, l, MaxBet)
			}
			b.Observe(y)
		}
		if grew := b.LogWealth() >= math.Log(1/0.02); grew != tc.grow {
			t.Errorf("%s: wealth %g after %d, want past 50: %v", tc.name, math.Exp(b.LogWealth()), b.n, tc.grow)
		}
	}
	var b Bettor
	if b.Lambda() != MaxBet {
		t.Errorf("first bet %g, want %g (the prior +½ with variance ¼ bets all it may)", b.Lambda(), MaxBet)
	}
}

func repeat(y float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = y
	}
	return out
}

func alternate(y float64, n int) []float64 {
	out := repeat(y, n)
	for i := range out {
		if i%2 == 1 {
			out[i] = -y
		}
	}
	return out
}

// TestEliminateClearlyWorse: a config 13% worse than the best and 12%
// worse than the baseline every round is eliminated, named worse than the
// best, and the race stops with the field; the baseline, 1% worse than
// the best (a fifth of the clip a round), is not.
func TestEliminateClearlyWorse(t *testing.T) {
	r, err := New([]string{"base", "good", "bad"}, Params{AlphaE: 0.02, AlphaS: 0.01, Clip: 0.05, Epsilon: 0.02, Finalists: 2, MaxRounds: 30})
	if err != nil {
		t.Fatal(err)
	}
	var gone []Entry
	for k := 0; r.Stop().Reason == ""; k++ {
		j := 0.005 * float64(k%3-1) // a little noise, no sign
		g, err := r.Observe(map[string]float64{"base": j, "good": -0.01 - j, "bad": 0.12 + j})
		if err != nil {
			t.Fatal(err)
		}
		gone = append(gone, g...)
	}
	if len(gone) != 1 || gone[0].Config != "bad" || gone[0].Reason != Eliminated || gone[0].WorseThan != "good" {
		t.Fatalf("eliminated %+v, want bad, worse than good", gone)
	}
	if gone[0].EAtDrop < 50 || gone[0].DroppedAt < 2 || gone[0].DroppedAt > 12 {
		t.Errorf("dropped at round %d with E %g: want E ≥ 50 within a few rounds", gone[0].DroppedAt, gone[0].EAtDrop)
	}
	if s := r.Stop(); s.Reason != StopField || s.Leader != "good" {
		t.Errorf("stop %+v, want field with leader good", s)
	}
	fin := r.Finalists()
	if len(fin) != 2 || fin[0] != "good" || fin[1] != "base" {
		t.Errorf("finalists %v, want [good base]", fin)
	}
	want := map[string]Reason{"base": Finalist, "good": Finalist, "bad": Eliminated}
	for _, e := range r.Entries() {
		if e.Reason != want[e.Config] {
			t.Errorf("%s: reason %s, want %s", e.Config, e.Reason, want[e.Config])
		}
	}
}

// TestTiesStopWithin: identical configs are never eliminated by
// noise-free data and the race ends with a within-ε stop.
func TestTiesStopWithin(t *testing.T) {
	p := params()
	p.MaxRounds = 200
	r, _ := New([]string{"a", "b", "c", "d"}, p)
	for r.Stop().Reason == "" {
		gone, err := r.Observe(map[string]float64{"a": 0, "b": 0.001, "c": -0.001, "d": 0})
		if err != nil {
			t.Fatal(err)
		}
		if len(gone) > 0 {
			t.Fatalf("round %d eliminated %+v among ties", r.Round(), gone)
		}
	}
	if r.Stop().Reason != StopWithin {
		t.Errorf("stop %+v, want within_epsilon", r.Stop())
	}
}

func TestMaxRoundsAndHalt(t *testing.T) {
	p := params()
	p.MaxRounds = 3
	r, _ := New([]string{"a", "b", "c"}, p)
	for r.Stop().Reason == "" {
		if _, err := r.Observe(map[string]float64{"a": 0, "b": 0.05 * float64(r.Round()%2), "c": 0}); err != nil {
			t.Fatal(err)
		}
	}
	if s := r.Stop(); s.Reason != StopMaxRounds || s.Round != 3 {
		t.Errorf("stop %+v, want max_rounds after 3", s)
	}
	r2, _ := New([]string{"a", "b", "c"}, params())
	r2.Halt(StopBudget)
	if r2.Stop().Reason != StopBudget {
		t.Errorf("Halt: %+v", r2.Stop())
	}
	if g, _ := r2.Observe(map[string]float64{"a": 1}); g != nil || r2.Round() != 0 {
		t.Errorf("a stopped race took a round")
	}
}

func TestInfeasibleDrop(t *testing.T) {
	r, _ := New([]string{"a", "b", "c"}, params())
	if err := r.Drop("b", "past the capacity cliff at c=16"); err != nil {
		t.Fatal(err)
	}
	if err := r.Drop("zz", "x"); !errors.Is(err, ErrParams) {
		t.Errorf("Drop unknown: %v", err)
	}
	if _, err := r.Observe(map[string]float64{"b": 0}); !errors.Is(err, ErrParams) {
		t.Errorf("Observe of a dropped config: %v, want ErrParams", err)
	}
	if _, err := r.Observe(map[string]float64{"a": math.Inf(1)}); !errors.Is(err, ErrParams) {
		t.Errorf("Observe +Inf: %v, want ErrParams", err)
	}
	es := r.Entries()
	if es[1].Reason != Infeasible || es[1].Why == "" {
		t.Errorf("b: %+v, want infeasible with a reason", es[1])
	}
	if got := r.Survivors(); len(got) != 2 {
		t.Errorf("survivors %v", got)
	}
	// A missing observation (failed window) only skips that config's pairs.
	if _, err := r.Observe(map[string]float64{"a": 0.01}); err != nil {
		t.Fatal(err)
	}
	if r.Entries()[2].Rounds != 0 || r.Entries()[0].Rounds != 1 {
		t.Errorf("rounds: %+v", r.Entries())
	}
}
