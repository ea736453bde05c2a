// Package schedule decides the order of a run's windows and drives them
// through a Runner.
//
// A run is a list of Steps: for each concurrency level, one discarded
// warmup window per slot, then rounds in which every slot gets exactly one
// measured window. The slot order inside a round is rotated (a seeded
// Latin-square rotation), so no slot always runs first or last and
// position effects (a warm cache left by the previous slot, a slow first
// window) cancel out over the rounds instead of biasing one config.
//
// The package is pure: it starts no processes and does no I/O; the driver
// implements Runner.
package schedule

import (
	"math/rand/v2"
	"time"

	"github.com/sweep-dev/sweep/sweep"
)

// Slot is one server process slot: a grid point, or the baseline's A/A
// twin. Index is the slot's identity in results.jsonl (sweep.Window.Slot)
// and must be unique within a run.
type Slot struct {
	Index    int
	Config   string // config label, as written to sweep.Window.Config
	Point    sweep.Point
	Baseline bool // the slot runs the baseline point
	AA       bool // the slot is the baseline's A/A twin
	// Reference: the slot is the run's reference server (run.reference),
	// not a grid point; Point is empty.
	Reference bool
	// Block is the block the slot belongs to (0 for a run of one block):
	// a large grid is measured in blocks one after another, each with its
	// own baseline, A/A twin and reference slots, and every comparison is
	// paired within its block.
	Block int
}

// Step is one window of a run: a slot at a concurrency level in a round.
// Warmup steps have Round == -1 and are not recorded.
type Step struct {
	Slot        Slot
	Concurrency int
	Round       int // 0-based; -1 for warmup
	Position    int // 0-based position of the slot within its round
	Warmup      bool
}

// Key is the step's coordinate as recorded in results.jsonl.
func (s Step) Key() sweep.WindowKey {
	return sweep.WindowKey{Slot: s.Slot.Index, Concurrency: s.Concurrency, Round: s.Round}
}

// Steps returns every step of a run. For each concurrency level, in the
// order given: one warmup step per slot (Warmup true, Round -1, in round
// 0's order), then rounds rounds in which every slot takes exactly one
// measured window.
//
// The order of round r at level c is a base permutation of the slots
// shifted cyclically by r: position p runs slot base[(p+r) mod n]. Over
// any n consecutive rounds each slot therefore takes each position exactly
// once. The base permutation is a Fisher–Yates shuffle driven by PCG
// seeded with (seed, c), so it differs between levels and seeds and is
// the same for the same seed on every machine and Go release.
//
// Steps returns nil when there are no slots, no levels or rounds < 1.
//
// Steps orders the slots of one block; a run of several blocks is the
// concatenation of their plans (the driver gives each block its own
// seed).
func Steps(slots []Slot, concurrency []int, rounds int, seed int64) []Step {
	n := len(slots)
	if n == 0 || len(concurrency) == 0 || rounds < 1 {
		return nil
	}
	steps := make([]Step, 0, len(concurrency)*n*(rounds+1))
	for _, c := range concurrency {
		base := permutation(n, seed, c)
		for p := range n {
			steps = append(steps, Step{Slot: slots[base[p]], Concurrency: c, Round: -1, Position: p, Warmup: true})
		}
		for r := range rounds {
			for p := range n {
				s := slots[base[(p+r)%n]]
				steps = append(steps, Step{Slot: s, Concurrency: c, Round: r, Position: p})
			}
		}
	}
	return steps
}

// Round returns the measured steps of one more round of an adaptive run
// at one level: slots are the ones still measured (the baseline and the
// configs not yet resolved, in slot order), in an order rotated like
// Steps': position p runs slots[base[(p+round) mod n]], base a seeded
// permutation of the n slots for (seed, concurrency).
func Round(slots []Slot, concurrency, round int, seed int64) []Step {
	n := len(slots)
	if n == 0 {
		return nil
	}
	base := permutation(n, seed, concurrency)
	steps := make([]Step, 0, n)
	for p := range n {
		steps = append(steps, Step{Slot: slots[base[(p+round)%n]], Concurrency: concurrency, Round: round, Position: p})
	}
	return steps
}

// permutation returns a seeded permutation of 0..n-1 for one level.
// The shuffle uses the PCG generator directly (its output is specified)
// rather than rand.Rand.Perm, whose algorithm may change between Go
// releases; that would silently change the order a resumed run expects.
// The modulo bias is below 2⁻⁵⁰ for any realistic slot count.
func permutation(n int, seed int64, concurrency int) []int {
	src := rand.NewPCG(uint64(seed), uint64(concurrency))
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := int(src.Uint64() % uint64(i+1))
		perm[i], perm[j] = perm[j], perm[i]
	}
	return perm
}

// Measured counts the steps that record a window (Warmup false).
func Measured(steps []Step) int {
	n := 0
	for _, s := range steps {
		if !s.Warmup {
			n++
		}
	}
	return n
}

// Estimate is the expected wall time of steps for -dry-run: warmup per
// warmup step, duration per measured step, and perSlotOverhead for every
// step (server start or readiness check, load setup, probes).
func Estimate(steps []Step, warmup, duration, perSlotOverhead time.Duration) time.Duration {
	measured := Measured(steps)
	warm := len(steps) - measured
	return time.Duration(warm)*warmup + time.Duration(measured)*duration +
		time.Duration(len(steps))*perSlotOverhead
}

// Starts counts the server starts the steps take, run in order as the
// driver runs them: only one block's servers are alive at a time (a
// block change stops them all), with restartRounds (restarts = "round")
// every measured round starts its servers afresh, and a slot's server
// starts at its first step after a stop.
func Starts(steps []Step, restartRounds bool) int {
	type round struct{ block, conc, round int }
	n := 0
	alive := map[int]bool{}
	var cur round
	for i, s := range steps {
		k := round{s.Slot.Block, s.Concurrency, s.Round}
		if i == 0 || k.block != cur.block || restartRounds && !s.Warmup && k != cur {
			clear(alive)
		}
		cur = k
		if !alive[s.Slot.Index] {
			alive[s.Slot.Index] = true
			n++
		}
	}
	return n
}
