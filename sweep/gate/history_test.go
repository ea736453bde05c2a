package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// TestCompareAny: against several baseline runs the new run regresses only
// when it regresses against every one; the rows shown are against the
// baseline that passed (the newest such) or the one with the fewest
// regressed rows.
func TestCompareAny(t *testing.T) {
	const cell = "linear_memory_keep_resident=64KiB"
	// An accepted run measured in a fast spell: this cell's cost beyond
	// the reference is 15% below the others'.
	fast := withReference(dearer(baseRun(), cell, 1, 0.85), 200, 300, 2)
	usual := withReference(baseRun(), 200, 300, 2)
	for _, tc := range []struct {
		name      string
		olds      []Accepted
		new       sweep.Summary
		regressed bool
		against   string
		outcomes  []bool // Regressed per baseline
	}{
		{"unchanged, one baseline was fast", []Accepted{{"a", usual}, {"b", fast}, {"c", usual}}, usual, false, "c", []bool{false, true, false}},
		{"unchanged, the newest passes", []Accepted{{"a", usual}, {"b", usual}}, usual, false, "b", []bool{false, false}},
		{"unchanged, only the oldest passes", []Accepted{{"a", usual}, {"b", fast}, {"c", fast}}, usual, false, "a", []bool{false, true, true}},
		{"+20% against every one", []Accepted{{"a", usual}, {"b", fast}, {"c", usual}}, dearer(usual, cell, 1, 1.2), true, "c", []bool{true, true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := CompareAny(tc.olds, tc.new, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Regressed != tc.regressed || r.Against != tc.against {
				t.Errorf("regressed %v against %q, want %v against %q", r.Regressed, r.Against, tc.regressed, tc.against)
			}
			if len(r.Outcomes) != len(tc.olds) {
				t.Fatalf("%d outcomes for %d baselines", len(r.Outcomes), len(tc.olds))
			}
			for i, o := range r.Outcomes {
				if o.Baseline != tc.olds[i].Name || o.Regressed != tc.outcomes[i] || (o.Rows > 0) != o.Regressed {
					t.Errorf("outcome %d = %+v, want baseline %q regressed %v", i, o, tc.olds[i].Name, tc.outcomes[i])
				}
			}
			if !strings.HasPrefix(r.Notes[0], "against "+itoa(len(tc.olds))+" baseline runs: the new run regresses only when it regresses against every one") ||
				!strings.HasSuffix(r.Notes[0], "the rows below are against "+tc.against) {
				t.Errorf("first note %q", r.Notes[0])
			}
			// The rows are Compare's against the chosen baseline.
			var chosen sweep.Summary
			for _, o := range tc.olds {
				if o.Name == tc.against {
					chosen = o.Summary
				}
			}
			want, _ := Compare(chosen, tc.new, nil, nil)
			if len(want.Rows) != len(r.Rows) || regressedRows(want) != regressedRows(r) {
				t.Errorf("rows differ from Compare against %s: %d (%d regressed) vs %d (%d)", tc.against, len(r.Rows), regressedRows(r), len(want.Rows), regressedRows(want))
			}
			verdict := r.Verdict()
			if tc.regressed && !strings.HasPrefix(verdict, "REGRESSED against every one of "+itoa(len(tc.olds))+" baseline runs") ||
				!tc.regressed && !strings.Contains(verdict, "against "+tc.against+" (of "+itoa(len(tc.olds))+" baseline runs)") {
				t.Errorf("verdict %q", verdict)
			}
		})
	}
}

// TestCompareAnyOne: one baseline is exactly Compare, with no outcomes.
func TestCompareAnyOne(t *testing.T) {
	old, new := load(t, "base"), load(t, "regressed")
	r, err := CompareAny([]Accepted{{"old", old}}, new, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Compare(old, new, nil, nil)
	if r.Against != "" || r.Outcomes != nil || r.Verdict() != want.Verdict() || len(r.Notes) != len(want.Notes) {
		t.Errorf("one baseline: %q %v %q, want Compare's %q", r.Against, r.Outcomes, r.Verdict(), want.Verdict())
	}
}

// TestCompareAnyErrors: no baseline, and a baseline of another grid named
// in the error.
func TestCompareAnyErrors(t *testing.T) {
	if _, err := CompareAny(nil, load(t, "base"), nil, nil); !errors.Is(err, ErrNoBaseline) {
		t.Errorf("no baseline: %v", err)
	}
	_, err := CompareAny([]Accepted{{"runs/a", load(t, "base")}, {"runs/b", load(t, "mismatch")}}, load(t, "base"), nil, nil)
	if !errors.Is(err, ErrMismatch) || !strings.HasPrefix(err.Error(), "baseline runs/b: ") {
		t.Errorf("mismatch: %v", err)
	}
}

// TestCompareAnyJSON: the JSON output names the chosen baseline and every
// outcome.
func TestCompareAnyJSON(t *testing.T) {
	usual := withReference(baseRun(), 200, 300, 2)
	r, err := CompareAny([]Accepted{{"a", usual}, {"b", usual}}, usual, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Against  string
		Outcomes []struct {
			Baseline      string
			Regressed     bool
			RegressedRows int `json:"regressed_rows"`
		}
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Against != "b" || len(out.Outcomes) != 2 || out.Outcomes[0].Baseline != "a" || out.Outcomes[1].Regressed {
		t.Errorf("json: %+v", out)
	}
}
