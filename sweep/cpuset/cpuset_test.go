package cpuset

import (
	"errors"
	"fmt"
	"os/exec"
	"reflect"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Set
		str  string
		bad  bool
	}{
		{"", nil, "", false},
		{"0", Set{0}, "0", false},
		{"0-1", Set{0, 1}, "0-1", false},
		{"3,0-1,1", Set{0, 1, 3}, "0-1,3", false},
		{" 2 , 4-6 ", Set{2, 4, 5, 6}, "2,4-6", false},
		{"a", nil, "", true},
		{"-1", nil, "", true},
		{"3-1", nil, "", true},
		{"0-", nil, "", true},
		{"0-100000", nil, "", true},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if tt.bad {
			if !errors.Is(err, ErrCPUSet) {
				t.Errorf("Parse(%q) err = %v, want ErrCPUSet", tt.in, err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) || got.String() != tt.str {
			t.Errorf("Parse(%q) = %v (%q), %v; want %v (%q)", tt.in, got, got.String(), err, tt.want, tt.str)
		}
	}
}

func TestOverlapsSubset(t *testing.T) {
	a, b, c := Set{0, 1}, Set{1, 2}, Set{3}
	if !a.Overlaps(b) || a.Overlaps(c) {
		t.Error("Overlaps wrong")
	}
	if got := b.Subset(a); !reflect.DeepEqual(got, Set{2}) {
		t.Errorf("Subset = %v", got)
	}
}

// TestStartPinned starts a real child pinned to the first online CPU and
// reads the child's affinity back from /proc, and checks the parent thread
// was restored.
func TestStartPinned(t *testing.T) {
	online, err := Online()
	if err != nil {
		t.Fatal(err)
	}
	before, err := Allowed(0)
	if err != nil {
		t.Fatal(err)
	}
	want := Set{online[len(online)-1]}
	cmd := exec.Command("sleep", "5")
	if err := StartPinned(cmd, want); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	got, err := Allowed(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("child affinity = %v, want %v", got, want)
	}
	after, err := Allowed(0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("parent affinity changed: %v → %v", before, after)
	}
}

func TestPinProcess(t *testing.T) {
	online, _ := Online()
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	want := Set{online[0]}
	if err := PinProcess(cmd.Process.Pid, want); err != nil {
		t.Fatal(err)
	}
	if got, _ := Allowed(cmd.Process.Pid); !reflect.DeepEqual(got, want) {
		t.Errorf("affinity = %v, want %v", got, want)
	}
}

func ExampleParse() {
	s, _ := Parse("3,0-1")
	fmt.Println(s, len(s))
	// Output: 0-1,3 3
}

func TestStartBatch(t *testing.T) {
	for _, pinned := range []bool{false, true} {
		var s Set
		if pinned {
			s = Set{0}
		}
		cmd := exec.Command("sleep", "5")
		runtime.LockOSThread() // so that the policy read below is the forking thread's
		if err := Start(cmd, s, true); err != nil {
			runtime.UnlockOSThread()
			t.Fatal(err)
		}
		self, err := unix.SchedGetAttr(0, 0)
		runtime.UnlockOSThread()
		if err != nil {
			t.Fatal(err)
		}
		child, err := unix.SchedGetAttr(cmd.Process.Pid, 0)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if child.Policy != unix.SCHED_BATCH {
			t.Errorf("pinned=%v: child policy = %d, want SCHED_BATCH (%d)", pinned, child.Policy, unix.SCHED_BATCH)
		}
		if self.Policy != unix.SCHED_NORMAL {
			t.Errorf("pinned=%v: the starting thread kept policy %d, want SCHED_NORMAL back", pinned, self.Policy)
		}
	}
}
