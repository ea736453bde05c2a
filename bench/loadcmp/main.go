// Command loadcmp measures sweep's load generator (package sweep/load,
// vegeta) side by side with wrk against one server process, for item 2 of
// BENCHMARKS.md: the generator must not be the bottleneck.
//
// It starts the server (argv after --, which must print sweep serve's
// ready line, or listen on the -url given), pinned to -server-cpus from
// birth, as the driver starts a slot; it pins itself to -load-cpus after
// start and sets GOMAXPROCS to the number of load CPUs, as the driver does
// (-gomaxprocs overrides it). Then for every concurrency level it warms up with both
// tools and runs -reps pairs of windows in ABBA order (wrk, sweep, sweep,
// wrk, …), each -d long, wrk pinned to the load CPUs with one thread and
// C connections. Per window it prints one JSON line: the tool, RPS, the
// generator's own CPU utilisation, and the server's CPU per request read
// with sweep's probe over the window. Last, one summary line per level:
// the median of the per-pair ratios sweep RPS / wrk RPS.
//
//	loadcmp -c 1,16 -d 5s -reps 3 -- bin/sweep serve -settings-json '{"touch":"64KiB"}'
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sweep-dev/sweep/bench/internal/benchsetup"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/load"
	"github.com/sweep-dev/sweep/sweep/probe"
	"github.com/sweep-dev/sweep/sweep/stats"
	"github.com/sweep-dev/sweep/sweep/target"
)

// window is one measured window, printed as a JSON line.
type window struct {
	Tool          string  `json:"tool"` // "wrk" or "sweep"
	Concurrency   int     `json:"concurrency"`
	Pair          int     `json:"pair"`
	Seconds       float64 `json:"seconds"`
	Requests      int64   `json:"requests"`
	Errors        int64   `json:"errors"` // non-2xx responses and socket errors
	RPS           float64 `json:"rps"`
	DriverCPUUtil float64 `json:"driver_cpu_util"` // generator CPU / (wall × load CPUs)
	ServerCPUUs   float64 `json:"server_cpu_us_per_req"`
}

// summary is the per-level result line.
type summary struct {
	Summary     string    `json:"summary"` // "sweep/wrk"
	Concurrency int       `json:"concurrency"`
	Median      float64   `json:"median"` // median of per-pair ratios sweep RPS / wrk RPS
	Q1          float64   `json:"q1"`
	Q3          float64   `json:"q3"`
	Ratios      []float64 `json:"ratios"`
}

// awakeBin is -awake (benchsetup.AwakeFlag).
var awakeBin = benchsetup.AwakeFlag()

func main() {
	levels := flag.String("c", "1,16", "concurrency levels (connections), comma-separated")
	d := flag.Duration("d", 5*time.Second, "length of one measured window")
	warmup := flag.Duration("warmup", time.Second, "warmup per tool and level, discarded")
	reps := flag.Int("reps", 3, "pairs of windows per level (ABBA order)")
	serverCPUs := flag.String("server-cpus", "0", "CPUs of the server")
	loadCPUs := flag.String("load-cpus", "1", "CPUs of the generators (this process and wrk)")
	url := flag.String("url", "", "URL to load; default: the address of the server's ready line")
	wrk := flag.String("wrk", "wrk", "wrk binary; \"\" runs sweep's generator alone (for profiling it)")
	procs := flag.Int("gomaxprocs", 0, "set GOMAXPROCS after pinning (0: the number of load CPUs, as the driver does)")
	flag.Parse()
	if err := run(*levels, *d, *warmup, *reps, *procs, *serverCPUs, *loadCPUs, *url, *wrk, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "loadcmp:", err)
		os.Exit(1)
	}
}

func run(levelList string, d, warmup time.Duration, reps, procs int, serverList, loadList, url, wrk string, argv []string) error {
	levels, err := benchsetup.Levels(levelList)
	if err != nil {
		return err
	}
	if len(argv) == 0 {
		return errors.New("want the server command after --")
	}
	if reps < 1 || d <= 0 || warmup <= 0 {
		return errors.New("-reps, -d and -warmup must be positive")
	}
	srvCPUs, ldCPUs, stopAwake, err := benchsetup.Pin(serverList, loadList, procs, *awakeBin)
	if err != nil {
		return err
	}
	defer stopAwake()
	spec := target.Spec{Argv: argv, CPUs: srvCPUs, ReadyLine: url == "", ReadyURL: url}
	ctx := context.Background()
	srv, err := target.Start(ctx, spec)
	if err != nil {
		return err
	}
	defer srv.Stop(3 * time.Second)
	if url == "" {
		url = "http://" + srv.Addr + "/"
	}
	out := json.NewEncoder(os.Stdout)
	for _, c := range levels {
		g, err := load.New(load.Options{URL: url, Concurrency: c, Timeout: 5 * time.Second})
		if err != nil {
			return err
		}
		m := &meter{pid: srv.PID, url: url, wrk: wrk, loadCPUs: ldCPUs, c: c, g: g}
		if wrk == "" {
			for range reps {
				w, err := m.sweepWindow(d)
				if err != nil {
					return err
				}
				_ = out.Encode(w)
			}
			g.Close()
			continue
		}
		if _, err := m.wrkWindow(warmup); err != nil {
			return err
		}
		if _, err := m.sweepWindow(warmup); err != nil {
			return err
		}
		var ratios []float64
		for p := range reps {
			var got [2]window // wrk, sweep
			order := []string{"wrk", "sweep"}
			if p%2 == 1 {
				order = []string{"sweep", "wrk"}
			}
			for _, tool := range order {
				var w window
				if tool == "wrk" {
					w, err = m.wrkWindow(d)
				} else {
					w, err = m.sweepWindow(d)
				}
				if err != nil {
					return err
				}
				w.Pair = p
				if tool == "wrk" {
					got[0] = w
				} else {
					got[1] = w
				}
				_ = out.Encode(w)
			}
			if got[0].RPS > 0 {
				ratios = append(ratios, got[1].RPS/got[0].RPS)
			}
		}
		g.Close()
		s := summary{Summary: "sweep/wrk", Concurrency: c, Ratios: ratios}
		s.Q1, s.Median, s.Q3 = stats.Quartiles(ratios)
		_ = out.Encode(s)
	}
	return nil
}

// meter runs windows of either tool against one server at one level.
type meter struct {
	pid      int
	url, wrk string
	loadCPUs cpuset.Set
	c        int
	g        *load.Generator
}

func (m *meter) sweepWindow(d time.Duration) (window, error) {
	before, err := probe.Read(m.pid)
	if err != nil {
		return window{}, err
	}
	selfBefore, err := probe.Self()
	if err != nil {
		return window{}, err
	}
	r, err := m.g.Run(context.Background(), d)
	if err != nil {
		return window{}, err
	}
	selfAfter, _ := probe.Self()
	after, err := probe.Read(m.pid)
	if err != nil {
		return window{}, err
	}
	delta := probe.Diff(before, after)
	w := window{Tool: "sweep", Concurrency: m.c, Requests: r.Requests, Errors: r.Requests - r.Success}
	w.Seconds = delta.Wall.Seconds()
	w.fill(delta, selfAfter-selfBefore, len(m.loadCPUs))
	return w, nil
}

var (
	wrkRequests = regexp.MustCompile(`(?m)^\s*(\d+) requests in ([0-9.]+)(us|ms|s|m)`)
	wrkErrors   = regexp.MustCompile(`(?m)Non-2xx or 3xx responses: (\d+)|Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
)

func (m *meter) wrkWindow(d time.Duration) (window, error) {
	secs := max(1, int(d.Round(time.Second)/time.Second))
	cmd := exec.Command(m.wrk, "-t1", "-c"+strconv.Itoa(m.c), "-d"+strconv.Itoa(secs)+"s", "--latency", m.url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	before, err := probe.Read(m.pid)
	if err != nil {
		return window{}, err
	}
	if err := cpuset.StartPinned(cmd, m.loadCPUs); err != nil {
		return window{}, fmt.Errorf("starting wrk: %w", err)
	}
	werr := cmd.Wait()
	after, err := probe.Read(m.pid)
	if err != nil {
		return window{}, err
	}
	if werr != nil {
		return window{}, fmt.Errorf("wrk: %w: %s", werr, strings.TrimSpace(stderr.String()))
	}
	w := window{Tool: "wrk", Concurrency: m.c}
	sm := wrkRequests.FindStringSubmatch(stdout.String())
	if sm == nil {
		return window{}, fmt.Errorf("wrk output without a request count:\n%s", stdout.String())
	}
	w.Requests, _ = strconv.ParseInt(sm[1], 10, 64)
	v, _ := strconv.ParseFloat(sm[2], 64)
	w.Seconds = v * map[string]float64{"us": 1e-6, "ms": 1e-3, "s": 1, "m": 60}[sm[3]]
	for _, em := range wrkErrors.FindAllStringSubmatch(stdout.String(), -1) {
		for _, f := range em[1:] {
			n, _ := strconv.ParseInt(f, 10, 64)
			w.Errors += n
		}
	}
	var ru *syscall.Rusage
	if ps := cmd.ProcessState; ps != nil {
		ru, _ = ps.SysUsage().(*syscall.Rusage)
	}
	var self time.Duration
	if ru != nil {
		self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	delta := probe.Diff(before, after)
	w.fill(delta, self, len(m.loadCPUs))
	return w, nil
}

// fill derives the rates; w.Seconds and w.Requests are set.
func (w *window) fill(server probe.Delta, self time.Duration, loadCPUs int) {
	if w.Seconds > 0 {
		w.RPS = float64(w.Requests) / w.Seconds
		w.DriverCPUUtil = self.Seconds() / (w.Seconds * float64(loadCPUs))
	}
	if w.Requests > 0 {
		w.ServerCPUUs = server.CPU.Seconds() * 1e6 / float64(w.Requests)
	}
}
