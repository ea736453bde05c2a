package driver

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/schedule"
	"golang.org/x/term"
)

// progress reports how far the run is: a redrawn bar with ETA on a
// terminal, a plain line every plainEvery otherwise, nothing when w is nil.
type progress struct {
	w         io.Writer
	tty       bool
	fd        int  // the terminal's, when tty
	total     int  // steps still to run (warmups and windows)
	doneSteps int  // steps finished
	begun     int  // steps begun
	warmDone  int  // warmup steps finished
	windows   int  // measured windows recorded
	sliced    bool // a round's windows are measured interleaved
	started   time.Time
	lastPlain time.Time
	cur       schedule.Step
	remaining time.Duration
	resolving string // rounds = "auto": what the current extra round resolves
}

const plainEvery = 10 * time.Second

func newProgress(w io.Writer, steps []schedule.Step, done map[sweep.WindowKey]bool, warmup, dur time.Duration, sliced bool) *progress {
	p := &progress{w: w, started: time.Now(), lastPlain: time.Now(), sliced: sliced}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty, p.fd = true, int(f.Fd())
	}
	for _, s := range steps {
		if s.Warmup {
			p.total++
			p.remaining += warmup
			continue
		}
		if !done[sweep.WindowKey{Slot: s.Slot.Index, Concurrency: s.Concurrency, Round: s.Round}] {
			p.total++
			p.remaining += dur
		}
	}
	return p
}

// step is called when a step begins. A warmup step is finished when the
// next step begins; a measured one when its window is recorded (with
// interleaved windows, all of a round's steps begin before any ends).
func (p *progress) step(s schedule.Step) {
	if p.w == nil {
		return
	}
	if p.begun > 0 && p.cur.Warmup {
		p.warmDone++
	}
	p.begun++
	p.cur = s
	p.doneSteps = p.warmDone + p.windows
	p.draw(false)
}

// window is called when a measured window has been recorded.
func (p *progress) window(w sweep.Window) {
	if !w.Remeasured { // a re-measure is no step of the plan
		p.windows++
	}
	if p.w == nil {
		return
	}
	p.doneSteps = p.warmDone + p.windows
	switch {
	case w.Failed && w.Remeasured:
		p.clear()
		fmt.Fprintf(p.w, "re-measure failed too: %s c=%d round %d: %s\n", w.Config, w.Concurrency, w.Round+1, w.FailReason)
	case w.Failed:
		p.clear()
		fmt.Fprintf(p.w, "window failed: %s c=%d round %d: %s\n", w.Config, w.Concurrency, w.Round+1, w.FailReason)
	case w.Remeasured:
		p.clear()
		fmt.Fprintf(p.w, "window re-measured: %s c=%d round %d\n", w.Config, w.Concurrency, w.Round+1)
	}
	p.draw(false)
}

func (p *progress) eta() time.Duration {
	if p.doneSteps == 0 {
		return p.remaining
	}
	per := time.Since(p.started) / time.Duration(p.doneSteps)
	return per * time.Duration(p.total-p.doneSteps)
}

func (p *progress) line() string {
	what := "warmup  " + p.cur.Slot.Config
	if !p.cur.Warmup {
		what = fmt.Sprintf("round %d  %s", p.cur.Round+1, p.cur.Slot.Config)
		if p.sliced {
			what = fmt.Sprintf("round %d  all slots interleaved", p.cur.Round+1)
		}
	}
	eta := "ETA " + p.eta().Round(time.Second).String()
	if p.resolving != "" {
		what += "  resolving " + p.resolving
		eta = "at most " + p.eta().Round(time.Second).String() + " more"
	}
	return fmt.Sprintf("%d/%d steps  c=%d %s  elapsed %s  %s", p.doneSteps, p.total,
		p.cur.Concurrency, what, time.Since(p.started).Round(time.Second), eta)
}

// note sets what the adaptive rounds are resolving ("" when none) and
// prints it once as its own line.
func (p *progress) note(resolving, line string) {
	p.resolving = resolving
	if p.w == nil || line == "" {
		return
	}
	p.clear()
	fmt.Fprintln(p.w, line)
	p.draw(false)
}

func (p *progress) draw(final bool) {
	if p.tty {
		const width = 24
		fill := 0
		if p.total > 0 {
			fill = width * p.doneSteps / p.total
		}
		bar := strings.Repeat("█", fill) + strings.Repeat("░", width-fill)
		cols, _, err := term.GetSize(p.fd) // read at every redraw: the window may be resized
		if err != nil {
			cols = 0
		}
		fmt.Fprintf(p.w, "\r\033[K%s", fit(bar+" "+p.line(), cols))
		if final {
			fmt.Fprintln(p.w)
		}
		return
	}
	if final || time.Since(p.lastPlain) >= plainEvery {
		p.lastPlain = time.Now()
		fmt.Fprintln(p.w, "progress: "+p.line())
	}
}

// fallbackCols is the width the progress line is cut to when the
// terminal's cannot be read.
const fallbackCols = 160

// fit cuts line to one row of a terminal cols characters wide (one less,
// so that the cursor does not wrap to a new row; fallbackCols when cols
// is not positive).
func fit(line string, cols int) string {
	if cols <= 0 {
		cols = fallbackCols + 1
	}
	if r := []rune(line); len(r) > cols-1 {
		return string(r[:max(cols-1, 0)])
	}
	return line
}

func (p *progress) clear() {
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// finish prints the final state.
func (p *progress) finish() {
	if p.w == nil {
		return
	}
	if p.begun > 0 && p.cur.Warmup {
		p.warmDone++
	}
	p.doneSteps = p.warmDone + p.windows
	p.clear()
	fmt.Fprintf(p.w, "measured %d windows in %s\n", p.windows, time.Since(p.started).Round(time.Second))
}
