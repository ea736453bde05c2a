// Command interleave asks whether interleaved windows (load.slice) change
// what they measure, for item 3 of BENCHMARKS.md: does a server loaded in
// short pieces, alternating with a second server on the same CPU, use more
// CPU per request than one loaded continuously?
//
// It starts two identical servers (argv after --, which must print sweep
// serve's ready line) pinned to -server-cpus, pins itself to -load-cpus
// with GOMAXPROCS set to their number, as the driver does, and warms both
// up. Then each repetition measures both servers once per mode, the two
// modes back to back (their order alternating by repetition), so the
// machine's drift falls alike on both:
//
//	continuous   A for -d, then B for -d (order alternating)
//	interleaved  A and B in pieces of -piece, ABBA…, -d each in total
//
// Per server and mode it prints one JSON line (CPU µs per request read with
// sweep's probe over exactly the pieces, RPS), then per concurrency a
// summary line: the quartiles of the paired ratio interleaved/continuous
// per server and repetition. A median above 1 with the whole interval
// above 1 means interleaving raised the CPU per request.
//
//	interleave -c 16 -reps 12 -piece 50ms -- bin/sweep serve -settings-json '{"touch":"64KiB"}'
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/sweep-dev/sweep/bench/internal/benchsetup"
	"github.com/sweep-dev/sweep/sweep/load"
	"github.com/sweep-dev/sweep/sweep/probe"
	"github.com/sweep-dev/sweep/sweep/stats"
	"github.com/sweep-dev/sweep/sweep/target"
)

// window is one server's measurement in one mode and repetition.
type window struct {
	Concurrency int     `json:"concurrency"`
	Rep         int     `json:"rep"`
	Mode        string  `json:"mode"` // "continuous" or "interleaved"
	Server      string  `json:"server"`
	Requests    int64   `json:"requests"`
	RPS         float64 `json:"rps"`
	CPUUsPerReq float64 `json:"cpu_us_per_req"`
	// Context switches of the server's threads per request: a server
	// loaded in bursts blocks and is preempted more often.
	VolPerReq   float64 `json:"vol_ctx_switches_per_req"`
	InvolPerReq float64 `json:"invol_ctx_switches_per_req"`
}

// summary is the paired result of one concurrency level.
type summary struct {
	Summary     string    `json:"summary"`
	Concurrency int       `json:"concurrency"`
	Piece       string    `json:"piece"`
	Ratios      []float64 `json:"ratios"`
	Q1          float64   `json:"q1"`
	Median      float64   `json:"median"`
	Q3          float64   `json:"q3"`
}

// awakeBin is -awake (benchsetup.AwakeFlag).
var awakeBin = benchsetup.AwakeFlag()

func main() {
	levels := flag.String("c", "16", "concurrency levels, comma-separated")
	d := flag.Duration("d", 2*time.Second, "time under load per server, mode and repetition")
	piece := flag.Duration("piece", 50*time.Millisecond, "length of an interleaved piece")
	reps := flag.Int("reps", 12, "repetitions per level")
	serverCPUs := flag.String("server-cpus", "0", "CPUs of both servers")
	loadCPUs := flag.String("load-cpus", "1", "CPUs of this process (the generator)")
	flag.Parse()
	if err := run(*levels, *d, *piece, *reps, *serverCPUs, *loadCPUs, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "interleave:", err)
		os.Exit(1)
	}
}

func run(levelList string, d, piece time.Duration, reps int, serverList, loadList string, argv []string) error {
	levels, err := benchsetup.Levels(levelList)
	if err != nil {
		return err
	}
	if len(argv) == 0 {
		return errors.New("want the server command after --")
	}
	if reps < 1 || d <= 0 || piece <= 0 || piece > d {
		return errors.New("-reps, -d and -piece must be positive, -piece at most -d")
	}
	srvCPUs, _, stopAwake, err := benchsetup.Pin(serverList, loadList, 0, *awakeBin)
	if err != nil {
		return err
	}
	defer stopAwake()
	ctx := context.Background()
	var srvs [2]*target.Server
	for i := range srvs {
		srv, err := target.Start(ctx, target.Spec{Argv: argv, CPUs: srvCPUs, ReadyLine: true})
		if err != nil {
			return err
		}
		defer srv.Stop(3 * time.Second)
		srvs[i] = srv
	}
	out := json.NewEncoder(os.Stdout)
	for _, c := range levels {
		var ms [2]*meter
		for i, srv := range srvs {
			g, err := load.New(load.Options{URL: "http://" + srv.Addr + "/", Concurrency: c, Timeout: 5 * time.Second})
			if err != nil {
				return err
			}
			defer g.Close()
			ms[i] = &meter{name: string(rune('A' + i)), pid: srv.PID, g: g}
			if _, err := g.Run(ctx, time.Second); err != nil { // warmup
				return err
			}
		}
		var ratios []float64
		n := max(1, int((d+piece/2)/piece))
		for rep := range reps {
			modes := []string{"continuous", "interleaved"}
			if rep%2 == 1 {
				modes[0], modes[1] = modes[1], modes[0]
			}
			got := map[string][2]float64{}
			for _, mode := range modes {
				for _, m := range ms {
					m.reset()
				}
				if mode == "continuous" {
					for _, i := range []int{rep % 2, 1 - rep%2} {
						if err := ms[i].piece(ctx, d); err != nil {
							return err
						}
					}
				} else {
					for k := range n {
						order := []int{0, 1}
						if k%2 == 1 {
							order = []int{1, 0}
						}
						for _, i := range order {
							if err := ms[i].piece(ctx, d/time.Duration(n)); err != nil {
								return err
							}
						}
					}
				}
				var v [2]float64
				for i, m := range ms {
					w := m.result(c, rep, mode)
					v[i] = w.CPUUsPerReq
					_ = out.Encode(w)
				}
				got[mode] = v
			}
			for i := range ms {
				if cont := got["continuous"][i]; cont > 0 {
					ratios = append(ratios, got["interleaved"][i]/cont)
				}
			}
		}
		s := summary{Summary: "interleaved/continuous CPU per request", Concurrency: c, Piece: piece.String(), Ratios: ratios}
		s.Q1, s.Median, s.Q3 = stats.Quartiles(ratios)
		_ = out.Encode(s)
	}
	return nil
}

// meter accumulates one server's pieces of a window.
type meter struct {
	name string
	pid  int
	g    *load.Generator
	w    *load.Window
	d    probe.Delta
}

func (m *meter) reset() { m.w, m.d = load.NewWindow(), probe.Delta{} }

// piece loads the server for d and adds the server's CPU over it.
func (m *meter) piece(ctx context.Context, d time.Duration) error {
	before, err := probe.Read(m.pid)
	if err != nil {
		return err
	}
	if err := m.g.RunSlice(ctx, d, m.w); err != nil {
		return err
	}
	after, err := probe.Read(m.pid)
	if err != nil {
		return err
	}
	m.d.Add(probe.Diff(before, after))
	return nil
}

func (m *meter) result(c, rep int, mode string) window {
	r := m.w.Result()
	w := window{Concurrency: c, Rep: rep, Mode: mode, Server: m.name, Requests: r.Requests}
	if r.Seconds > 0 {
		w.RPS = float64(r.Requests) / r.Seconds
	}
	if r.Requests > 0 {
		n := float64(r.Requests)
		w.CPUUsPerReq = m.d.CPU.Seconds() * 1e6 / n
		w.VolPerReq, w.InvolPerReq = float64(m.d.VolCtxSwitches)/n, float64(m.d.InvolCtxSwitches)/n
	}
	return w
}
