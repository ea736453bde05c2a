package probe

import (
	"strings"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	// Fields after the name: state ppid pgrp session tty tpgid flags minflt
	// cminflt majflt cmajflt utime stime ...
	tests := []struct {
		name, in string
		cpu, sys time.Duration
		minflt   int64
		err      string
	}{
		{"plain", "42 (sweep) S 1 42 42 0 -1 4194560 1234 99 0 0 150 25 0 0 20 0 8 0", 175 * clockTick, 25 * clockTick, 1234, ""},
		{"name with spaces and parens", "7 (a) b (c)) R 1 7 7 0 -1 0 5 0 0 0 1 2 0 0", 3 * clockTick, 2 * clockTick, 5, ""},
		{"no name", "7 sweep R 1", 0, 0, 0, "no command name"},
		{"short", "7 (x) R 1 7 7 0 -1 0 5", 0, 0, 0, "want at least 15"},
		{"not a number", "7 (x) R 1 7 7 0 -1 0 5 0 0 0 x 2 0", 0, 0, 0, "field 14"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStat("/proc/7/stat", []byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want containing %q", err, tt.err)
				}
				return
			}
			if err != nil || got.cpu != tt.cpu || got.sys != tt.sys || got.user != tt.cpu-tt.sys || got.minflt != tt.minflt {
				t.Errorf("got %+v, %v; want cpu %v (kernel %v) minflt %d", got, err, tt.cpu, tt.sys, tt.minflt)
			}
		})
	}
}

func TestParseCtxSwitches(t *testing.T) {
	ok := "Name:\tx\nvoluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3\n"
	v, n, err := parseCtxSwitches("s", []byte(ok))
	if err != nil || v != 12 || n != 3 {
		t.Errorf("got %d %d %v, want 12 3", v, n, err)
	}
	if _, _, err := parseCtxSwitches("s", []byte("Name:\tx\n")); err == nil {
		t.Error("missing lines accepted")
	}
}

func TestDiffSources(t *testing.T) {
	a := Sample{Mono: time.Second, CPU: 5 * time.Millisecond, StatCPU: 0, Source: SourceClock, MinorFaults: 10, RSSBytes: 1}
	b := Sample{Mono: 3 * time.Second, CPU: 1005 * time.Millisecond, StatCPU: 990 * time.Millisecond, Source: SourceClock, MinorFaults: 25, RSSBytes: 7,
		VolCtxSwitches: 4, InvolCtxSwitches: 2, StatUser: 700 * time.Millisecond, StatSys: 290 * time.Millisecond}
	d := Diff(a, b)
	want := Delta{Wall: 2 * time.Second, CPU: time.Second, Source: SourceClock, MinorFaults: 15, VolCtxSwitches: 4, InvolCtxSwitches: 2, RSSBytes: 7,
		User: 700 * time.Millisecond, Sys: 290 * time.Millisecond}
	if d != want {
		t.Errorf("Diff = %+v, want %+v", d, want)
	}
	b.Source = SourceProcStat
	if d := Diff(a, b); d.Source != SourceProcStat || d.CPU != 990*time.Millisecond {
		t.Errorf("mixed sources: Diff = %+v, want ticks delta 990ms from proc_stat", d)
	}
}

func TestProcessClockID(t *testing.T) {
	// MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) = (~pid << 3) | 2.
	for _, tt := range []struct {
		pid  int
		want int32
	}{{1, -14}, {1234, -9878}} {
		if got := processClock(tt.pid); got != tt.want {
			t.Errorf("processClock(%d) = %d, want %d", tt.pid, got, tt.want)
		}
	}
}
