package driver

import (
	"slices"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/config"
	"github.com/sweep-dev/sweep/sweep/schedule"
)

// AASuffix marks the A/A twin's config label.
const AASuffix = " [A/A]"

// ReferenceLabel is the reference slot's config label (run.reference). No
// grid point's label can be it: those are "axis=value ..." or "(default)".
const ReferenceLabel = "[reference]"

// Slots returns the run's server slots, block after block (Blocks).
func Slots(c *config.Config) []schedule.Slot {
	var all []schedule.Slot
	for _, b := range Blocks(c) {
		all = append(all, b...)
	}
	return all
}

// Blocks splits the grid into blocks: the points other than the baseline,
// in grid order, run.block_size at a time, and in every block the
// baseline at its grid position, its A/A twin right after it (when aa =
// true) and the reference server last (when run.reference = true). Slot
// indices run on over the blocks, so that they are unique in the run and
// in any shard of it. A grid of at most block_size points besides the
// baseline is one block: one slot per grid point, in grid order.
func Blocks(c *config.Config) [][]schedule.Slot {
	size := max(c.Run.BlockSize, 1)
	var chunks [][]sweep.Point
	n := 0 // candidates so far
	for _, p := range c.Points {
		if p.Equal(c.Baseline) {
			continue
		}
		if n%size == 0 {
			chunks = append(chunks, nil)
		}
		chunks[len(chunks)-1] = append(chunks[len(chunks)-1], p)
		n++
	}
	if len(chunks) == 0 {
		chunks = [][]sweep.Point{nil} // the baseline alone
	}
	var blocks [][]schedule.Slot
	next := 0
	for b, chunk := range chunks {
		var slots []schedule.Slot
		add := func(s schedule.Slot) {
			s.Index, s.Block = next, b
			next++
			slots = append(slots, s)
		}
		for _, p := range c.Points {
			base := p.Equal(c.Baseline)
			if !base && !slices.ContainsFunc(chunk, p.Equal) {
				continue
			}
			add(schedule.Slot{Config: p.Label(), Point: p, Baseline: base})
			if base && c.Load.AA {
				add(schedule.Slot{Config: p.Label() + AASuffix, Point: p, AA: true})
			}
		}
		if c.Run.Reference {
			add(schedule.Slot{Config: ReferenceLabel, Point: sweep.Point{}, Reference: true})
		}
		blocks = append(blocks, slots)
	}
	return blocks
}

// BaselineLabel and AALabel name the baseline and its twin.
func BaselineLabel(c *config.Config) string { return c.Baseline.Label() }

// AALabel is "" when the run has no A/A twin.
func AALabel(c *config.Config) string {
	if !c.Load.AA {
		return ""
	}
	return c.Baseline.Label() + AASuffix
}
