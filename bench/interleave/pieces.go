package main

import (
	"context"
	"math"
	"time"

	"github.com/sweep-dev/sweep/sweep/load"
	"github.com/sweep-dev/sweep/sweep/probe"
	"github.com/sweep-dev/sweep/sweep/stats"
)

// pairStats is what one interleaved window of both servers says about
// the method itself, beyond the interleaved/continuous shift:
//
//   - ratio: A's CPU per request over B's over the whole window, as sweep
//     pairs two slots (A/A: both run the same command, so its spread over
//     repetitions is the A/A noise of a window of this length and piece);
//   - switched: per piece pair, the CPU per request of the piece that
//     follows the other server's piece over that of the piece that follows
//     the server's own (the ABBA order gives each server both kinds in
//     turn). Above 1: a server runs slower just after the other one ran.
func pairStats(a, b []piece) (ratio float64, switched []float64) {
	ra, rb := total(a).cpuPerReq(), total(b).cpuPerReq()
	if ra > 0 && rb > 0 {
		ratio = ra / rb
	}
	// Order of the interleaved window: piece k is A then B for even k,
	// B then A for odd k. So for odd k, A follows B and B follows its own
	// piece k-1; for even k ≥ 2, B follows A and A follows its own.
	for k := 1; k < min(len(a), len(b)); k++ {
		x, y := a[k].cpuPerReq(), b[k].cpuPerReq()
		if x == 0 || y == 0 {
			continue
		}
		if k%2 == 1 {
			switched = append(switched, x/y)
		} else {
			switched = append(switched, y/x)
		}
	}
	return ratio, switched
}

// total is the sum of pieces.
func total(ps []piece) piece {
	var t piece
	for _, p := range ps {
		t.cpu += p.cpu
		t.requests += p.requests
		t.seconds += p.seconds
	}
	return t
}

// spread is a summary of ratios: quartiles and the standard deviation of
// their logarithm (≈ the relative standard deviation), in percent.
func spread(name string, c int, pieceLen string, ratios []float64) summary {
	s := summary{Summary: name, Concurrency: c, Piece: pieceLen, Ratios: ratios}
	s.Q1, s.Median, s.Q3 = stats.Quartiles(ratios)
	if len(ratios) > 1 {
		var sum, sq float64
		for _, r := range ratios {
			sum += math.Log(r)
		}
		mean := sum / float64(len(ratios))
		for _, r := range ratios {
			sq += (math.Log(r) - mean) * (math.Log(r) - mean)
		}
		s.SDPercent = 100 * math.Sqrt(sq/float64(len(ratios)-1))
	}
	return s
}

// meter accumulates one server's pieces of a window.
type meter struct {
	name   string
	pid    int
	g      *load.Generator
	pieces []piece
	d      probe.Delta
}

// piece is one server's figures over one piece of a window.
type piece struct {
	cpu      time.Duration
	requests int64
	seconds  float64
}

// cpuPerReq is the piece's server CPU µs per request (0 without requests).
func (p piece) cpuPerReq() float64 {
	if p.requests == 0 {
		return 0
	}
	return p.cpu.Seconds() * 1e6 / float64(p.requests)
}

func (m *meter) reset() { m.pieces, m.d = nil, probe.Delta{} }

// piece loads the server for d and adds the server's CPU over it.
func (m *meter) piece(ctx context.Context, d time.Duration) error {
	before, err := probe.Read(m.pid)
	if err != nil {
		return err
	}
	w := load.NewWindow()
	if err := m.g.RunSlice(ctx, d, w); err != nil {
		return err
	}
	after, err := probe.Read(m.pid)
	if err != nil {
		return err
	}
	delta := probe.Diff(before, after)
	m.d.Add(delta)
	r := w.Result()
	m.pieces = append(m.pieces, piece{cpu: delta.CPU, requests: r.Requests, seconds: r.Seconds})
	return nil
}

func (m *meter) result(c, rep int, mode string) window {
	w := window{Concurrency: c, Rep: rep, Mode: mode, Server: m.name}
	var seconds float64
	for _, p := range m.pieces {
		w.Requests += p.requests
		seconds += p.seconds
	}
	if seconds > 0 {
		w.RPS = float64(w.Requests) / seconds
	}
	if w.Requests > 0 {
		n := float64(w.Requests)
		w.CPUUsPerReq = m.d.CPU.Seconds() * 1e6 / n
		w.VolPerReq, w.InvolPerReq = float64(m.d.VolCtxSwitches)/n, float64(m.d.InvolCtxSwitches)/n
	}
	return w
}
