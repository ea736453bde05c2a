package gate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

// withReference gives s a reference server of refCPU µs per request,
// 1/RPS of refTime µs per request and a p99 of refP99 ms at every level.
func withReference(s sweep.Summary, refCPU, refTime, refP99 float64) sweep.Summary {
	for _, c := range fixConc {
		s.Reference = append(s.Reference, sweep.Cell{Config: "[reference]", Point: sweep.Point{}, Concurrency: c, Rounds: 5,
			CPUUsPerReq: refCPU, RPS: 1e6 / refTime, SuccessRPS: 1e6 / refTime, P99Ms: refP99})
	}
	return s
}

// tails makes the p99 of every cell at level conc (every level when conc
// is 0) f times what it was, as a slow spell of this machine does to
// every server alike, or a build with a worse tail to one config.
func tails(s sweep.Summary, config string, conc int, f float64) sweep.Summary {
	return modify(s, func(c *sweep.Cell) {
		if (config == "" || c.Config == config) && (conc == 0 || c.Concurrency == conc) {
			c.P99Ms *= f
		}
	})
}

// slower adds us µs to every request of every cell, as this machine's
// drift does: CPU per request and time per request up by the same
// amount.
func slower(s sweep.Summary, us float64) sweep.Summary {
	return modify(s, func(c *sweep.Cell) {
		c.CPUUsPerReq += us
		c.RPS = 1e6 / (1e6/c.RPS + us)
		c.SuccessRPS = 1e6 / (1e6/c.SuccessRPS + us)
	})
}

// dearer makes one cell's CPU per request f times what it was.
func dearer(s sweep.Summary, config string, conc int, f float64) sweep.Summary {
	return modify(s, func(c *sweep.Cell) {
		if c.Config == config && c.Concurrency == conc {
			c.CPUUsPerReq *= f
		}
	})
}

func TestCompareAnchored(t *testing.T) {
	const cell = "linear_memory_keep_resident=64KiB"
	old := withReference(baseRun(), 200, 300, 2)
	for _, tc := range []struct {
		name      string
		new       sweep.Summary
		regressed []string // "config c=N metric" of the regressed rows
		note      string   // a note that must be there
	}{
		{
			name: "machine adds 45 µs to every request, build unchanged",
			new:  withReference(slower(baseRun(), 45), 245, 345, 2),
			note: "the reference server moved between the runs (the machine's drift): c=1 CPU/req +22.5%, RPS −13.0%",
		},
		{
			name:      "machine unchanged, one cell 10% dearer",
			new:       withReference(dearer(baseRun(), cell, 16, 1.10), 200, 300, 2),
			regressed: []string{cell + " c=16 cpu_us_per_req − reference"},
			note:      "unpaired, anchored: ",
		},
		{
			name: "one cell 4% dearer: more than the 2% threshold, within the anchor's 5%",
			new:  withReference(dearer(baseRun(), cell, 16, 1.04), 200, 300, 2),
			note: "what it leaves is allowed for (cpu_us_per_req 5%, rps 7%, success_rps 7%, p99_ms 100%)",
		},
		{
			// ×3.5 is beyond the absolute rows' 200%: only the anchor passes it.
			name: "every server's tail ×3.5 at c=1, the reference's too",
			new:  withReference(tails(baseRun(), "", 1, 3.5), 200, 300, 7),
			note: "p99 by its ratio to the reference's p99",
		},
		{
			name:      "machine unchanged, one cell's p99 ×2.5",
			new:       withReference(tails(baseRun(), cell, 16, 2.5), 200, 300, 2),
			regressed: []string{cell + " c=16 p99_ms / reference"},
		},
		{
			name:      "machine 45 µs slower and one cell 10% dearer",
			new:       withReference(slower(dearer(baseRun(), cell, 1, 1.10), 45), 245, 345, 2),
			regressed: []string{cell + " c=1 cpu_us_per_req − reference"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Compare(old, tc.new, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			anchoredRows := 0
			for _, row := range r.Rows {
				if strings.HasSuffix(row.Metric, " − reference") || strings.HasSuffix(row.Metric, " / reference") {
					anchoredRows++
				}
				if row.Regressed {
					got = append(got, row.Config+" c="+strconv.Itoa(row.Concurrency)+" "+row.Metric)
				}
				if _, err := sweep.ParseMetric(row.Metric); err == nil && (row.Regressed || !row.Shown) {
					t.Errorf("absolute row %s c=%d %s judged (%q) although both runs have the reference", row.Config, row.Concurrency, row.Metric, row.Note)
				}
			}
			if want := 3 * len(fixConc) * 4; anchoredRows != want {
				t.Errorf("%d rows against the reference, want %d (every cell × CPU, RPS, success RPS, p99)", anchoredRows, want)
			}
			if strings.Join(got, "\n") != strings.Join(tc.regressed, "\n") || r.Regressed != (len(tc.regressed) > 0) {
				t.Errorf("regressed rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.regressed, "\n"))
			}
			if !strings.Contains(strings.Join(r.Notes, "\n"), tc.note) {
				t.Errorf("notes %q lack %q", r.Notes, tc.note)
			}
		})
	}
}

// TestCompareOneReference: with the reference in only one run the check
// falls back to absolute levels against the drift, and says so.
func TestCompareOneReference(t *testing.T) {
	r, err := Compare(withReference(baseRun(), 200, 300, 2), slower(baseRun(), 45), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Regressed {
		t.Error("a run 45 µs/req slower passed although only absolute levels could be compared (7% drift allowance)")
	}
	for _, row := range r.Rows {
		if strings.HasSuffix(row.Metric, " − reference") || strings.HasSuffix(row.Metric, " / reference") || row.Shown {
			t.Fatalf("an anchored or shown row with one reference: %+v", row)
		}
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "only one of the runs measured the reference server") {
		t.Errorf("notes %q do not say that only one run had the reference", r.Notes)
	}
}
