package report

import (
	"fmt"

	"github.com/sweep-dev/sweep/sweep"
)

// undecidedWords says why a comparison decided nothing and what it
// needed: "undecided: too few rounds (5 of the 8 needed)", "undecided:
// no paired rounds (8 needed)".
func undecidedWords(d sweep.Delta) string {
	switch {
	case d.Pairs == 0 && d.Needed > 0:
		return fmt.Sprintf("%s: no paired rounds (%d needed)", sweep.VerdictUndecided, d.Needed)
	case d.Pairs == 0:
		return fmt.Sprintf("%s: no paired rounds", sweep.VerdictUndecided)
	case d.Needed > 0:
		return fmt.Sprintf("%s: too few rounds (%d of the %d needed)", sweep.VerdictUndecided, d.Pairs, d.Needed)
	}
	return fmt.Sprintf("%s: too few rounds (%d)", sweep.VerdictUndecided, d.Pairs)
}

// undecidedAt is the first candidate's comparison on metric at level
// conc when every candidate's there is undecided (with the rounds it
// needed), else nil.
func undecidedAt(ss []series, conc int, metric sweep.Metric) *sweep.Delta {
	var first *sweep.Delta
	for _, sr := range candidates(ss) {
		c, ok := sr.cell(conc)
		if !ok {
			continue
		}
		d, ok := c.VsBaseline[metric]
		if !ok || d.Verdict != sweep.VerdictUndecided || d.Needed == 0 {
			return nil
		}
		if first == nil {
			first = &d
		}
	}
	return first
}
