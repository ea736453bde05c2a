package report

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"unicode"

	"github.com/sweep-dev/sweep/sweep"
)

// Bench writes results.bench: the windows in the Go benchmark format
// (golang.org/design/14313-benchmark-format), so that two runs can be
// compared with benchstat. After goos/goarch/pkg/cpu configuration lines
// and unit metadata (rps and success-rps are better higher), each window
// with completed requests is one line:
//
//	BenchmarkSweep/config=<label>/c=16 <requests> <ns> ns/op <µs> cpu-µs/req <rps> rps <rps> success-rps <ms> p99-ms
//
// The label has white space replaced by "_" and "/" (which would start a
// new sub-benchmark) by "∕"; "=" is kept. ns/op is the window's wall time
// per completed request. goos and goarch are those of the reporting
// process, which the data model does not record separately.
func Bench(w io.Writer, s sweep.Summary, ws []sweep.Window) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "goos: %s\n", runtime.GOOS)
	fmt.Fprintf(bw, "goarch: %s\n", runtime.GOARCH)
	fmt.Fprintf(bw, "pkg: sweep\n")
	if cpu := oneLine(s.Environment.CPUModel); cpu != "" {
		fmt.Fprintf(bw, "cpu: %s\n", cpu)
	}
	fmt.Fprintf(bw, "Unit rps better=higher\n")
	fmt.Fprintf(bw, "Unit success-rps better=higher\n")
	for _, win := range ws {
		if win.Failed || win.Requests <= 0 || win.Seconds <= 0 {
			continue
		}
		fmt.Fprintf(bw, "%s %d %s ns/op %s cpu-µs/req %s rps %s success-rps %s p99-ms\n",
			BenchName(win), win.Requests,
			num(win.Seconds*1e9/float64(win.Requests)), num(win.CPUUsPerReq),
			num(win.RPS), num(win.SuccessRPS), num(win.P99Ms))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing results.bench: %w", err)
	}
	return nil
}

// BenchName is a window's benchmark name: BenchmarkSweep/config=<label>/c=<n>.
func BenchName(w sweep.Window) string {
	label := strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return '_'
		case r == '/':
			return '∕' // U+2215 DIVISION SLASH: looks alike, does not split the name
		}
		return r
	}, w.Config)
	return fmt.Sprintf("BenchmarkSweep/config=%s/c=%d", label, w.Concurrency)
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
