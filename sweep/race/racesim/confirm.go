package racesim

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/sweep-dev/sweep/sweep/race"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// Confirmation tests.
const (
	// SignedRank is the exact signed-rank test of every finalist's
	// ConfirmRounds (race.ConfirmRounds) paired log ratios, Holm over the
	// family: the confirmation of issue 32.
	SignedRank = "signed-rank"
	// TTest is race.Confirm, the paired t-test with Holm, on
	// race.TRounds rounds per level.
	TTest = "t"
)

// confirmResult is what one simulated confirmation did.
type confirmResult struct {
	windows int
	false_  bool // a change called where the true costs are equal, or the wrong way
	tests   int  // comparisons whose true costs differ
	called  int  // of those, the ones called in the right direction
}

// confirm simulates the confirmation of the finalists: fresh rounds at
// every level of the finalists other than the baseline, the baseline and
// its A/A twin; every finalist's paired log ratios at every level get
// s.Confirm's test, and Holm at the confirmation's share decides.
func confirm(rng *rand.Rand, f Field, n Noise, s Settings, finalists []int) confirmResult {
	var cands []int
	for _, i := range finalists {
		if i != 0 {
			cands = append(cands, i)
		}
	}
	rounds := s.ConfirmRounds(len(cands))
	out := confirmResult{windows: s.Levels * rounds * (len(cands) + 2)}
	var cs []race.Comparison
	for l := range s.Levels {
		ds := make([][]float64, len(cands))
		for range rounds {
			base := f[0] + n.window(rng, 0)
			_ = n.window(rng, 0) // the A/A twin's window
			for k, i := range cands {
				ds[k] = append(ds[k], f[i]+n.window(rng, i)-base)
			}
		}
		for k, i := range cands {
			cs = append(cs, race.Comparison{Config: fmt.Sprint(i), Level: l, Ratios: ds[k]})
		}
	}
	truth := func(c race.Comparison) float64 { return f[index(names(f), c.Config)] - f[0] }
	for _, c := range cs {
		out.tests += b2i(truth(c) != 0)
	}
	alpha := race.Split(s.Confidence).Confirm
	if s.Confirm == TTest {
		for _, v := range race.Confirm(cs, alpha) {
			tr := truth(v.Comparison)
			switch {
			case v.Call == race.Unresolved:
			case tr == 0 || (tr < 0) != (v.Call == race.Lower):
				out.false_ = true
			default:
				out.called++
			}
		}
		return out
	}
	type test struct {
		p     float64
		truth float64
		sign  float64
	}
	var fam []test
	for _, c := range cs {
		hl := stats.SignedRankInterval(c.Ratios, 0.5).Estimate
		fam = append(fam, test{p: stats.SignedRankP(c.Ratios), truth: truth(c), sign: hl})
	}
	slices.SortFunc(fam, func(a, b test) int { return cmp.Compare(a.p, b.p) })
	for j, c := range fam {
		if c.p > alpha/float64(len(fam)-j) {
			break
		}
		if c.truth == 0 || (c.truth < 0) != (c.sign < 0) {
			out.false_ = true
		} else {
			out.called++
		}
	}
	return out
}

// names are a field's config names, as Race gives them: "0", "1", ….
func names(f Field) []string {
	out := make([]string, len(f))
	for i := range f {
		out[i] = fmt.Sprint(i)
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
