package report

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/sweep-dev/sweep/sweep"
)

// Bench writes results.bench: the windows in the Go benchmark format
// (golang.org/design/14313-benchmark-format), so that two runs, or two
// values of one axis, can be compared with benchstat. After
// goos/goarch/pkg/cpu configuration lines and unit metadata (req/s and
// success-req/s are better higher), each window with completed requests
// is one line, the baseline's windows first (benchstat takes the first
// value it sees of a key as the base):
//
//	BenchmarkSweep/<axis>=<value>/.../c=16 <requests> <ns> cpu-ns/req <rps> req/s <rps> success-req/s <ns> p99-ns
//
// (BenchName has the keys). goos and goarch are those of the reporting
// process, which the data model does not record separately.
func Bench(w io.Writer, s sweep.Summary, ws []sweep.Window) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "goos: %s\n", runtime.GOOS)
	fmt.Fprintf(bw, "goarch: %s\n", runtime.GOARCH)
	fmt.Fprintf(bw, "pkg: sweep\n")
	if cpu := oneLine(s.Environment.CPUModel); cpu != "" {
		fmt.Fprintf(bw, "cpu: %s\n", cpu)
	}
	fmt.Fprintf(bw, "Unit req/s better=higher\n")
	fmt.Fprintf(bw, "Unit success-req/s better=higher\n")
	ordered := slices.Clone(ws)
	slices.SortStableFunc(ordered, func(a, b sweep.Window) int { return benchRank(a) - benchRank(b) })
	for _, win := range ordered {
		if win.Failed || win.Requests <= 0 || win.Seconds <= 0 {
			continue
		}
		fmt.Fprintf(bw, "%s %d %s cpu-ns/req %s req/s %s success-req/s %s p99-ns\n",
			BenchName(win), win.Requests,
			num(win.CPUUsPerReq*1e3), num(win.RPS), num(win.SuccessRPS), num(win.P99Ms*1e6))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing results.bench: %w", err)
	}
	return nil
}

// benchRank orders results.bench: the baseline, the other configs and
// the A/A twin, the reference server.
func benchRank(w sweep.Window) int {
	switch {
	case w.Baseline:
		return 0
	case w.Reference:
		return 2
	}
	return 1
}

// BenchName is a window's benchmark name: one key per grid axis, in
// sorted order, then the level, so that benchstat can put one axis in
// its columns (`-col /linear_memory_keep_resident`) and the others in its
// rows:
//
//	BenchmarkSweep/linear_memory_keep_resident=64KiB/touch=4KiB/c=16
//
// The A/A twin adds role=aa before the level, and the reference server
// (run.reference) is BenchmarkSweep/role=reference/c=N. A point without
// axes has only the level. In values, white space becomes "_" and "/"
// (which would start a new sub-benchmark) "∕".
func BenchName(w sweep.Window) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case unicode.IsSpace(r):
				return '_'
			case r == '/':
				return '∕' // U+2215 DIVISION SLASH: looks alike, does not split the name
			}
			return r
		}, s)
	}
	var b strings.Builder
	b.WriteString("BenchmarkSweep")
	for _, axis := range w.Point.Axes() {
		b.WriteString("/" + clean(axis) + "=" + clean(w.Point[axis]))
	}
	switch {
	case w.AA:
		b.WriteString("/role=aa")
	case w.Reference:
		b.WriteString("/role=reference")
	}
	fmt.Fprintf(&b, "/c=%d", w.Concurrency)
	return b.String()
}

// num formats a measurement with six significant digits, without exponent.
func num(v float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	if err != nil {
		r = v
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// oneLine collapses white space so a value fits a configuration line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
