// Command floor measures item 1 of BENCHMARKS.md with paired rounds: the
// built-in host's server CPU per request against the floor
// (Invoke in-process + a no-op net/http server), all three measured in
// the same round, so that the machine's drift between minutes cancels in
// each round's ratio host / (invoke + noop).
//
// It starts three processes pinned to -server-cpus, as the driver starts
// slots: `sweep serve` with the settings, bench/noop, and itself with
// -invoke-loop (wasmhost.Host.Invoke of the same plugin and settings in a
// loop on one goroutine, on command). It pins itself to -load-cpus. Per
// level and round it runs one window of each, in an order rotated round by
// round: the two servers under sweep's closed-loop load (package
// sweep/load) with their CPU read by sweep's probe, the Invoke loop with
// its CPU read by the same probe. It prints one JSON line per window and
// one summary line per level (median and quartiles of the per-round
// ratio host / (invoke + noop)).
//
//	floor -sweep bin/sweep -noop bin/bench-noop -settings-json '{"touch":"64KiB"}'
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/sweep-dev/sweep/bench/internal/benchsetup"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/load"
	"github.com/sweep-dev/sweep/sweep/probe"
	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/stats"
	"github.com/sweep-dev/sweep/sweep/target"
	"github.com/sweep-dev/sweep/sweep/wasmhost"
)

// Kinds of window.
const (
	kindHost   = "host"
	kindNoop   = "noop"
	kindInvoke = "invoke"
)

// window is one measured window, printed as a JSON line.
type window struct {
	Kind        string  `json:"kind"`
	Concurrency int     `json:"concurrency"`
	Round       int     `json:"round"`
	Position    int     `json:"position"`
	Seconds     float64 `json:"seconds"`
	Ops         int64   `json:"ops"` // requests or Invoke calls
	CPUUsPerOp  float64 `json:"cpu_us_per_op"`
}

// summary is the per-level result line.
type summary struct {
	Summary     string    `json:"summary"` // "host/floor"
	Concurrency int       `json:"concurrency"`
	Median      float64   `json:"median"`
	Q1          float64   `json:"q1"`
	Q3          float64   `json:"q3"`
	Ratios      []float64 `json:"ratios"`
	Host        float64   `json:"host_us"` // medians of the windows
	Noop        float64   `json:"noop_us"`
	Invoke      float64   `json:"invoke_us"`
}

// awakeBin is -awake (benchsetup.AwakeFlag).
var awakeBin = benchsetup.AwakeFlag()

func main() {
	loop := flag.Bool("invoke-loop", false, "internal: run the Invoke loop on command (stdin: a duration per line; stdout: calls made)")
	gap := flag.Duration("invoke-gap", 0, "sleep this long between the Invoke loop's calls (0: back to back, the floor); to see what idling between requests costs")
	settingsJSON := flag.String("settings-json", `{"linear_memory_keep_resident":"0","touch":"64KiB"}`, "settings of the host and of the Invoke loop")
	sweepBin := flag.String("sweep", "bin/sweep", "the sweep binary")
	noopBin := flag.String("noop", "bin/bench-noop", "the bench/noop binary")
	levels := flag.String("c", "1,16", "concurrency levels, comma-separated")
	d := flag.Duration("d", 2*time.Second, "window length")
	warmup := flag.Duration("warmup", time.Second, "warmup per process and level")
	rounds := flag.Int("rounds", 8, "rounds per level")
	serverCPUs := flag.String("server-cpus", "0", "CPUs of the three measured processes")
	loadCPUs := flag.String("load-cpus", "1", "CPUs of this process (the load generator)")
	flag.Parse()
	var err error
	if *loop {
		err = invokeLoop(*settingsJSON, *gap, os.Stdin, os.Stdout)
	} else {
		err = run(*sweepBin, *noopBin, *settingsJSON, *levels, *d, *warmup, *rounds, *serverCPUs, *loadCPUs, *gap)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

// invokeLoop serves commands: for each duration read, it calls Invoke
// back to back (or gap apart) for that long and prints the number of calls.
func invokeLoop(settingsJSON string, gap time.Duration, in io.Reader, out io.Writer) error {
	var m map[string]string
	if err := json.Unmarshal([]byte(settingsJSON), &m); err != nil {
		return fmt.Errorf("-settings-json: %w", err)
	}
	s, err := setting.FromMap(m)
	if err != nil {
		return err
	}
	h, err := wasmhost.New(wasmhost.Options{Plugin: wasmhost.Workload, Settings: s, Timeout: 5 * time.Second})
	if err != nil {
		return err
	}
	defer h.Close()
	w := &discard{h: http.Header{}}
	ctx := context.Background()
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		d, err := time.ParseDuration(strings.TrimSpace(sc.Text()))
		if err != nil {
			return fmt.Errorf("command %q: %w", sc.Text(), err)
		}
		n := 0
		for end := time.Now().Add(d); time.Now().Before(end); n++ {
			if err := h.Invoke(ctx, nil, w); err != nil {
				return err
			}
			if gap > 0 {
				time.Sleep(gap)
			}
		}
		fmt.Fprintln(out, n)
	}
	return sc.Err()
}

func run(sweepBin, noopBin, settingsJSON, levelList string, d, warmup time.Duration, rounds int, serverList, loadList string, gap time.Duration) error {
	levels, err := benchsetup.Levels(levelList)
	if err != nil {
		return err
	}
	if rounds < 1 || d <= 0 || warmup <= 0 {
		return errors.New("-rounds, -d and -warmup must be positive")
	}
	srvCPUs, _, stopAwake, err := benchsetup.Pin(serverList, loadList, 0, *awakeBin)
	if err != nil {
		return err
	}
	defer stopAwake()
	ctx := context.Background()
	host, err := target.Start(ctx, target.Spec{CPUs: srvCPUs, ReadyLine: true,
		Argv: []string{sweepBin, "serve", "-listen", "127.0.0.1:0", "-plugin", wasmhost.Workload,
			"-settings-json", settingsJSON, "-timeout", "5s", "-log-level", "warn"}})
	if err != nil {
		return err
	}
	defer host.Stop(3 * time.Second)
	port, err := target.FreePort()
	if err != nil {
		return err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	noop, err := target.Start(ctx, target.Spec{CPUs: srvCPUs, ReadyURL: "http://" + addr + "/",
		Argv: []string{noopBin, "-listen", addr}})
	if err != nil {
		return err
	}
	defer noop.Stop(3 * time.Second)
	inv, err := startLoop(settingsJSON, gap, srvCPUs)
	if err != nil {
		return err
	}
	defer inv.close()

	out := json.NewEncoder(os.Stdout)
	for _, c := range levels {
		m := map[string]meter{kindInvoke: inv}
		for kind, srv := range map[string]*target.Server{kindHost: host, kindNoop: noop} {
			g, err := load.New(load.Options{URL: "http://" + srv.Addr + "/", Concurrency: c, Timeout: 5 * time.Second})
			if err != nil {
				return err
			}
			defer g.Close()
			m[kind] = &loadMeter{pid: srv.PID, g: g}
		}
		order := []string{kindHost, kindNoop, kindInvoke}
		for _, k := range order {
			if _, _, err := m[k].measure(warmup); err != nil {
				return fmt.Errorf("warmup of %s: %w", k, err)
			}
		}
		per := map[string][]float64{}
		var ratios []float64
		for r := range rounds {
			got := map[string]float64{}
			for p := range order {
				k := order[(p+r)%len(order)]
				ops, cpu, err := m[k].measure(d)
				if err != nil {
					return fmt.Errorf("%s at c=%d: %w", k, c, err)
				}
				w := window{Kind: k, Concurrency: c, Round: r, Position: p, Seconds: d.Seconds(), Ops: ops}
				if ops > 0 {
					w.CPUUsPerOp = cpu.Seconds() * 1e6 / float64(ops)
				}
				got[k] = w.CPUUsPerOp
				per[k] = append(per[k], w.CPUUsPerOp)
				_ = out.Encode(w)
			}
			if f := got[kindInvoke] + got[kindNoop]; f > 0 {
				ratios = append(ratios, got[kindHost]/f)
			}
		}
		s := summary{Summary: "host/floor", Concurrency: c, Ratios: ratios}
		s.Q1, s.Median, s.Q3 = stats.Quartiles(ratios)
		_, s.Host, _ = stats.Quartiles(per[kindHost])
		_, s.Noop, _ = stats.Quartiles(per[kindNoop])
		_, s.Invoke, _ = stats.Quartiles(per[kindInvoke])
		_ = out.Encode(s)
	}
	return nil
}

// meter runs one window and returns the operations done and the CPU the
// measured process used meanwhile.
type meter interface {
	measure(d time.Duration) (int64, time.Duration, error)
}

// loadMeter is a server under closed-loop load.
type loadMeter struct {
	pid int
	g   *load.Generator
}

func (m *loadMeter) measure(d time.Duration) (int64, time.Duration, error) {
	before, err := probe.Read(m.pid)
	if err != nil {
		return 0, 0, err
	}
	r, err := m.g.Run(context.Background(), d)
	if err != nil {
		return 0, 0, err
	}
	after, err := probe.Read(m.pid)
	if err != nil {
		return 0, 0, err
	}
	if r.Success != r.Requests {
		return 0, 0, fmt.Errorf("%d of %d requests failed: %v %v", r.Requests-r.Success, r.Requests, r.StatusCodes, r.TransportErrors)
	}
	return r.Requests, probe.Diff(before, after).CPU, nil
}

// loopMeter is the -invoke-loop child.
type loopMeter struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startLoop(settingsJSON string, gap time.Duration, cpus cpuset.Set) (*loopMeter, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-invoke-loop", "-settings-json", settingsJSON, "-invoke-gap", gap.String())
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cpuset.StartPinned(cmd, cpus); err != nil {
		return nil, fmt.Errorf("starting the Invoke loop: %w", err)
	}
	return &loopMeter{cmd: cmd, in: in, out: bufio.NewScanner(out)}, nil
}

func (m *loopMeter) measure(d time.Duration) (int64, time.Duration, error) {
	before, err := probe.Read(m.cmd.Process.Pid)
	if err != nil {
		return 0, 0, err
	}
	if _, err := fmt.Fprintln(m.in, d); err != nil {
		return 0, 0, err
	}
	if !m.out.Scan() {
		return 0, 0, fmt.Errorf("the Invoke loop ended: %v", m.out.Err())
	}
	n, err := strconv.ParseInt(strings.TrimSpace(m.out.Text()), 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("the Invoke loop answered %q", m.out.Text())
	}
	after, err := probe.Read(m.cmd.Process.Pid)
	if err != nil {
		return 0, 0, err
	}
	return n, probe.Diff(before, after).CPU, nil
}

func (m *loopMeter) close() {
	_ = m.in.Close()
	_ = m.cmd.Wait()
}

// discard is an http.ResponseWriter that drops the response, as in
// wasmhost's BenchmarkInvoke.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { return len(p), nil }
func (d *discard) WriteHeader(int)             {}
