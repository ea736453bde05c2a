package probe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseIPIs(t *testing.T) {
	for _, tt := range []struct {
		name     string
		text     string // inline text, or "" to read file
		file     string
		cpus     []int
		tlb, cal int64
		ok       bool
		err      string
	}{
		// This project's VM (2 vCPUs, kernel 6.18), captured 2026-12-05.
		{name: "2-CPU VM, CPU 0", file: "interrupts-2cpu-vm.txt", cpus: []int{0}, tlb: 0, cal: 119615, ok: true},
		{name: "2-CPU VM, CPUs 0-1", file: "interrupts-2cpu-vm.txt", cpus: []int{0, 1}, tlb: 0, cal: 119615 + 83880, ok: true},
		{name: "2-CPU VM, all (empty set)", file: "interrupts-2cpu-vm.txt", tlb: 0, cal: 119615 + 83880, ok: true},
		{name: "CPU 2 offline: columns by header", file: "interrupts-4cpu-cpu2-offline.txt", cpus: []int{1, 3}, tlb: 110, cal: 500, ok: true},
		{name: "offline CPU counts 0", file: "interrupts-4cpu-cpu2-offline.txt", cpus: []int{2}, tlb: 0, cal: 0, ok: true},
		{name: "no TLB line (arm64 style)", text: "  CPU0 CPU1\nIPI0: 5 6 Rescheduling interrupts\nCAL: 1 2 x\n", cpus: []int{0}, ok: false},
		{name: "short line", text: "  CPU0 CPU1\nTLB: 5\n", err: "TLB: has 1 counts for 2 CPUs"},
		{name: "bad count", text: "  CPU0\nCAL: x1\n", err: "CAL: count of CPU0"},
		{name: "bad header", text: "  cpu0\n", err: `header column "cpu0"`},
		{name: "empty", text: "", err: "no header line"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := []byte(tt.text)
			if tt.file != "" {
				var err error
				if b, err = os.ReadFile(filepath.Join("testdata", tt.file)); err != nil {
					t.Fatal(err)
				}
			}
			x, err := ParseIPIs("interrupts", b)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tlb, cal, ok := x.Sum(tt.cpus)
			if tlb != tt.tlb || cal != tt.cal || ok != tt.ok {
				t.Errorf("Sum(%v) = %d, %d, %v; want %d, %d, %v", tt.cpus, tlb, cal, ok, tt.tlb, tt.cal, tt.ok)
			}
		})
	}
}

// TestReadIPIs reads this machine's /proc/interrupts (x86 has both lines).
func TestReadIPIs(t *testing.T) {
	x, err := ReadIPIs()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := x.Sum(nil); !ok {
		t.Skip("this kernel has no TLB/CAL lines in /proc/interrupts")
	}
}
