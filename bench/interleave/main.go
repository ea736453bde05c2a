// Command interleave asks whether interleaved windows (load.slice) change
// what they measure, for item 3 of BENCHMARKS.md: does a server loaded in
// short pieces, alternating with a second server on the same CPU, use more
// CPU per request than one loaded continuously? And how noisy is the
// pairing of two identical servers in interleaved windows?
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
// -partner changes what runs between A's interleaved pieces: "server"
// (B's pieces, the default), "idle" (nothing, for as long) or "none" (A's
// pieces back to back); with the last two only A is measured.
//
// Per server and mode it prints one JSON line (CPU µs per request read with
// sweep's probe over exactly the pieces, RPS), then per concurrency the
// summary lines, each with the quartiles of a ratio and the standard
// deviation of its logarithm (sd_percent):
//
//   - interleaved/continuous CPU per request, per server and repetition: a
//     median above 1 with the whole interval above 1 means interleaving
//     raised the CPU per request;
//
//   - A/B CPU per request of the interleaved windows, per repetition (with
//     -partner server): the A/A noise of one window of -d in pieces of
//     -piece, as sweep pairs two slots;
//
//   - the CPU per request of a piece that follows the other server's piece
//     over that of the same server's next or previous piece that follows
//     its own, per piece pair: what a switch between servers costs.
//
//     interleave -c 16 -reps 12 -piece 50ms -- bin/sweep serve -settings-json '{"touch":"64KiB"}'
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
	// SDPercent is the standard deviation of the ratios' logarithm, in
	// percent (0 for fewer than two ratios).
	SDPercent float64 `json:"sd_percent,omitempty"`
}

// partner is -partner: what runs between A's interleaved pieces. With
// idle or none only A is measured, and B stands unused.
var partner = "server"

// awakeBin is -awake (benchsetup.AwakeFlag).
var awakeBin = benchsetup.AwakeFlag()

func main() {
	levels := flag.String("c", "16", "concurrency levels, comma-separated")
	d := flag.Duration("d", 2*time.Second, "time under load per server, mode and repetition")
	piece := flag.Duration("piece", 50*time.Millisecond, "length of an interleaved piece")
	reps := flag.Int("reps", 12, "repetitions per level")
	serverCPUs := flag.String("server-cpus", "0", "CPUs of both servers")
	loadCPUs := flag.String("load-cpus", "1", "CPUs of this process (the generator)")
	flag.StringVar(&partner, "partner", "server", "what runs between A's pieces: server (B's pieces), idle (nothing, as long), none (A's pieces back to back)")
	flag.Parse()
	if partner != "server" && partner != "idle" && partner != "none" {
		fmt.Fprintln(os.Stderr, "interleave: -partner must be server, idle or none")
		os.Exit(2)
	}
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
		var ratios, ab, switched []float64
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
				if err := runMode(ctx, ms, mode, rep, n, d); err != nil {
					return err
				}
				var v [2]float64
				for i, m := range ms {
					if !measured(i) {
						continue
					}
					w := m.result(c, rep, mode)
					v[i] = w.CPUUsPerReq
					_ = out.Encode(w)
				}
				got[mode] = v
				if mode == "interleaved" && partner == "server" {
					r, sw := pairStats(ms[0].pieces, ms[1].pieces)
					if r > 0 {
						ab = append(ab, r)
					}
					switched = append(switched, sw...)
				}
			}
			for i := range ms {
				if !measured(i) {
					continue
				}
				if cont := got["continuous"][i]; cont > 0 {
					ratios = append(ratios, got["interleaved"][i]/cont)
				}
			}
		}
		_ = out.Encode(spread("interleaved/continuous CPU per request", c, piece.String(), ratios))
		if partner == "server" {
			_ = out.Encode(spread("A/B CPU per request, interleaved windows", c, piece.String(), ab))
			s := spread("CPU per request of a piece after the other server / after its own", c, piece.String(), switched)
			s.Ratios = nil // one per piece pair: too many to print
			_ = out.Encode(s)
		}
	}
	return nil
}

// measured tells whether server i is loaded and measured: B only with
// -partner server.
func measured(i int) bool { return i == 0 || partner == "server" }

// runMode measures both servers' windows of one mode and repetition: the
// continuous windows one after the other (their order alternating by
// repetition), or the interleaved ones in n pieces each, ABBA…. With
// -partner idle, A's pieces are separated by idle gaps as long; with none,
// they follow each other.
func runMode(ctx context.Context, ms [2]*meter, mode string, rep, n int, d time.Duration) error {
	if mode == "continuous" {
		for _, i := range []int{rep % 2, 1 - rep%2} {
			if !measured(i) {
				continue
			}
			if err := ms[i].piece(ctx, d); err != nil {
				return err
			}
		}
		return nil
	}
	for k := range n {
		order := []int{0, 1}
		if k%2 == 1 {
			order = []int{1, 0}
		}
		for _, i := range order {
			if !measured(i) {
				if partner == "idle" {
					time.Sleep(d / time.Duration(n))
				}
				continue
			}
			if err := ms[i].piece(ctx, d/time.Duration(n)); err != nil {
				return err
			}
		}
	}
	return nil
}
