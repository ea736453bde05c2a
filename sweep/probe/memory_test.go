package probe

import (
	"errors"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestParseMemory(t *testing.T) {
	const good = "Name:\tsweep\nVmPeak:\t  900 kB\nVmSize:\t  800 kB\nVmHWM:\t  300 kB\nVmRSS:\t  200 kB\nThreads:\t4\n"
	tests := []struct {
		name string
		in   string
		want Memory
		err  string
	}{
		{"all three", good, Memory{RSS: 200 << 10, Peak: 300 << 10, Size: 800 << 10}, ""},
		{"kernel thread", "Name:\tkthreadd\nThreads:\t1\n", Memory{}, "no VmRSS"},
		{"not kB", strings.Replace(good, "200 kB", "200 MB", 1), Memory{}, "not a size in kB"},
		{"not a number", strings.Replace(good, "300 kB", "x kB", 1), Memory{}, "VmHWM"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseMemory("status", []byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("parseMemory = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestResetPeak grows this process's resident set, drops it, and checks
// that ResetPeak brings VmHWM down from the high-water mark to about the
// resident set.
func TestResetPeak(t *testing.T) {
	pid := os.Getpid()
	before, err := ReadMemory(pid)
	if err != nil {
		t.Fatal(err)
	}
	const grow = 64 << 20
	buf := make([]byte, grow)
	for i := 0; i < len(buf); i += 4096 {
		buf[i] = 1
	}
	high, err := ReadMemory(pid)
	if err != nil {
		t.Fatal(err)
	}
	if high.Peak < before.RSS+grow/2 || high.Size < high.RSS {
		t.Fatalf("after touching 64 MiB: %+v (before %+v)", high, before)
	}
	runtime.KeepAlive(buf)
	buf = nil
	runtime.GC()
	debug.FreeOSMemory()
	if err := ResetPeak(pid); err != nil {
		t.Fatal(err)
	}
	after, err := ReadMemory(pid)
	if err != nil {
		t.Fatal(err)
	}
	if after.Peak > high.Peak-grow/2 {
		t.Errorf("VmHWM after ResetPeak = %d MiB, want well below the %d MiB high-water mark (RSS %d MiB)",
			after.Peak>>20, high.Peak>>20, after.RSS>>20)
	}
	if _, err := ReadMemory(1 << 30); !errors.Is(err, ErrNoProcess) {
		t.Errorf("ReadMemory(no such pid) = %v, want ErrNoProcess", err)
	}
}
