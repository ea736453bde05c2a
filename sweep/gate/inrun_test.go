package gate

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// inRunRun is a run of an old and a new build (and the old one's A/A
// twin) at c=1 and 16 over 12 rounds: CPU per request 200 µs × (1 + slow)
// for the new build, per-window noise of 1.5%, RPS inversely.
func inRunRun(seed uint64, slow float64) (sweep.Summary, []sweep.Window) {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := sweep.Summary{Baseline: "build=old", AAConfig: "build=old [A/A]", Complete: true,
		Plan: sweep.Plan{Concurrency: []int{1, 16}, Restarts: "round", Confidence: 0.95, CliffRate: 0.001, Objective: "cpu_per_req", TargetConc: 16}}
	configs := map[string]float64{"build=old": 0, "build=old [A/A]": 0, "build=new": slow}
	for _, c := range []string{"build=old", "build=old [A/A]", "build=new"} {
		pt := sweep.Point{"build": strings.TrimSuffix(strings.TrimPrefix(c, "build="), " [A/A]")}
		s.Cells = append(s.Cells, sweep.Cell{Config: c, Point: pt, Baseline: c == "build=old", AA: strings.HasSuffix(c, "[A/A]")})
	}
	var ws []sweep.Window
	for _, conc := range []int{1, 16} {
		for round := range 12 {
			for c, slowBy := range configs {
				e := math.Exp(0.015 * rng.NormFloat64())
				cpu := 200 * (1 + slowBy) * e
				ws = append(ws, sweep.Window{Config: c, Concurrency: conc, Round: round, Baseline: c != "build=new", AA: strings.HasSuffix(c, "[A/A]"),
					Requests: 5000, Success: 5000, RPS: 5000 / e / (1 + slowBy), SuccessRPS: 5000 / e / (1 + slowBy), P99Ms: 1, CPUUsPerReq: cpu})
			}
		}
	}
	return s, ws
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		slow float64
		want bool
	}{{"unchanged build passes", 0, false}, {"5% slower build fails", 0.05, true}} {
		t.Run(tc.name, func(t *testing.T) {
			s, ws := inRunRun(9, tc.slow)
			c, err := SelectCandidate(s, "build=new")
			if err != nil {
				t.Fatal(err)
			}
			r, err := Check(s, ws, c, DefaultThresholds())
			if err != nil {
				t.Fatal(err)
			}
			if r.Regressed != tc.want || !r.Paired || r.Candidate != "build=new" {
				t.Errorf("regressed %v, paired %v, candidate %q; want regressed %v:\n%+v", r.Regressed, r.Paired, r.Candidate, tc.want, r.Rows)
			}
			if tc.want && r.Rows[0].Note == "" || !strings.Contains(r.Verdict(), map[bool]string{true: "REGRESSED", false: "no regression"}[tc.want]) {
				t.Errorf("verdict %q, first row %+v", r.Verdict(), r.Rows[0])
			}
		})
	}
}

func TestSelectCandidate(t *testing.T) {
	s, _ := inRunRun(1, 0)
	if c, err := SelectCandidate(s, ""); err != nil || c != "build=new" {
		t.Errorf("the only candidate: %q, %v", c, err)
	}
	for _, sel := range []string{"build=none", "build"} {
		if _, err := SelectCandidate(s, sel); !errors.Is(err, ErrCandidate) {
			t.Errorf("%q: err %v, want ErrCandidate", sel, err)
		}
	}
	s.Cells = append(s.Cells, sweep.Cell{Config: "build=other", Point: sweep.Point{"build": "other"}})
	if _, err := SelectCandidate(s, ""); !errors.Is(err, ErrCandidate) || !strings.Contains(err.Error(), "-candidate") {
		t.Errorf("two candidates, none chosen: err %v", err)
	}
}
