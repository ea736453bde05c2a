package gate

import (
	"fmt"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/units"
)

// MetricRSS names the in-run gate's memory rows: the candidate's RSS at
// the end of its windows against the baseline's, in MiB (sweep check -rss).
const MetricRSS = "rss_mib"

// CheckRSS is Check with a memory gate besides the thresholds th: when
// rss > 0, an RSS row per level regresses when the candidate's resident
// set is larger than the baseline's by more than rss (a fraction of the
// baseline's RSS) with the run's confidence: the whole interval of the
// paired RSS change (sweep.MemoryChange, in MiB) lies above rss × the
// baseline's median RSS over the same pairs. rss = 0 is Check.
func CheckRSS(s sweep.Summary, ws []sweep.Window, candidate string, th Thresholds, rss float64) (Result, error) {
	if rss < 0 || rss >= MaxThreshold {
		return Result{}, fmt.Errorf("%w: -rss %g: want 0 up to %d00%%", ErrThreshold, rss, MaxThreshold)
	}
	return check(s, ws, candidate, th, rss)
}

// rssRow judges the candidate cell c's RSS at one level.
func rssRow(c sweep.Cell, threshold float64) Row {
	ch, ok := c.MemoryVsBaseline[sweep.MemRSS]
	r := Row{Config: c.Config, Concurrency: c.Concurrency, Metric: MetricRSS, Threshold: threshold}
	if !ok || ch.BaselineMiB <= 0 {
		r.Note = "no paired RSS figures"
		return r
	}
	r.Old, r.New = ch.BaselineMiB, ch.BaselineMiB+ch.MedianMiB
	r.Change = ch.EstimateMiB / ch.BaselineMiB
	r.Confidence = ch.Confidence
	if ch.CILowMiB == nil || ch.CIHighMiB == nil {
		r.Confidence = 0
		r.Undecided, r.Note = true, undecidedNote(ch.Pairs, 0, units.Share(ch.Confidence))
		return r
	}
	r.CILow, r.CIHigh = *ch.CILowMiB/ch.BaselineMiB, *ch.CIHighMiB/ch.BaselineMiB
	switch {
	case r.CILow > threshold:
		r.Regressed = true
		r.Note = fmt.Sprintf("RSS larger by at least %s (%s) > %s threshold, at %s", units.Share(r.CILow), sweep.MiBChange(*ch.CILowMiB), units.Share(threshold), units.Share(ch.Confidence))
	case r.CIHigh > threshold:
		r.Note = fmt.Sprintf("RSS %s, not surely by more than the %s threshold", sweep.MiBChange(ch.MedianMiB), units.Share(threshold))
	default:
		r.Note = fmt.Sprintf("RSS %s (%s)", sweep.MiBChange(ch.MedianMiB), ch.Correction)
	}
	return r
}
