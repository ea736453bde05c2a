package profile

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// scriptText is perf script output in Convert's format, trimmed from a
// real recording, with a comm holding a space and a Rust symbol holding
// spaces and parentheses.
const scriptText = `busy 26994/26994 19229.954104516:    1001001 
	ffffffff8165bc37 do_madvise ([kernel.kallsyms])
	ffffffff8165bcc7 __x64_sys_madvise ([kernel.kallsyms])
	           7d798 syscall.Madvise (/tmp/pf/busy)
	           78ea1 runtime.goexit.abi0 (/tmp/pf/busy)

tokio runtime 26994/27001 19229.955098391:    1001001 
	           21743 <wasmtime::Store<T> as core::ops::Drop>::drop (in place) (/usr/lib/libwasmtime.so)
	  7364616f6c6572 [unknown] ([unknown])

sleep 27029/27029 19229.956000000:    1001001 
	           21743 memmove (/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)
`

func TestParseScript(t *testing.T) {
	var got []ScriptSample
	err := ParseScript(strings.NewReader(scriptText), func(s *ScriptSample) error {
		got = append(got, *s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []ScriptSample{
		{Comm: "busy", PID: 26994, TID: 26994, Time: 19229954104516, Period: 1001001, Stack: []Frame{
			{0xffffffff8165bc37, "do_madvise", "[kernel.kallsyms]"},
			{0xffffffff8165bcc7, "__x64_sys_madvise", "[kernel.kallsyms]"},
			{0x7d798, "syscall.Madvise", "/tmp/pf/busy"},
			{0x78ea1, "runtime.goexit.abi0", "/tmp/pf/busy"},
		}},
		{Comm: "tokio runtime", PID: 26994, TID: 27001, Time: 19229955098391, Period: 1001001, Stack: []Frame{
			{0x21743, "<wasmtime::Store<T> as core::ops::Drop>::drop (in place)", "/usr/lib/libwasmtime.so"},
			{0x7364616f6c6572, "[unknown]", "[unknown]"},
		}},
		{Comm: "sleep", PID: 27029, TID: 27029, Time: 19229956000000, Period: 1001001, Stack: []Frame{
			{0x21743, "memmove", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"},
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseScript:\n got %+v\nwant %+v", got, want)
	}
}

func TestParseScriptErrors(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"no period", "busy 1/1 1.5:\n"},
		{"no time", "busy 1/1 1001001\n"},
		{"bad pid", "busy x/1 1.5: 1001001\n"},
		{"frame first", "\tffff sym (dso)\n"},
		{"frame without dso", "busy 1/1 1.5: 10\n\tffff sym\n"},
		{"bad address", "busy 1/1 1.5: 10\n\txyz sym (dso)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ParseScript(strings.NewReader(tc.text), func(*ScriptSample) error { return nil })
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a *SyntaxError", err)
			}
		})
	}
	stop := errors.New("stop")
	if err := ParseScript(strings.NewReader(scriptText), func(*ScriptSample) error { return stop }); err != stop {
		t.Errorf("err = %v, want fn's error", err)
	}
}

func TestFrameKernel(t *testing.T) {
	for _, tc := range []struct {
		f    Frame
		want bool
	}{
		{Frame{0xffffffff8165bc37, "do_madvise", "[kernel.kallsyms]"}, true},
		{Frame{0xffffffffc0a01000, "[unknown]", "[unknown]"}, true}, // a module's address
		{Frame{0x7d798, "syscall.Madvise", "/tmp/pf/busy"}, false},
		{Frame{0x7364616f6c6572, "[unknown]", "[unknown]"}, false},
	} {
		if got := tc.f.Kernel(); got != tc.want {
			t.Errorf("%+v.Kernel() = %v, want %v", tc.f, got, tc.want)
		}
	}
}
