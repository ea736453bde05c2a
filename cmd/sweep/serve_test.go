//go:build linux && cgo

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/units"
)

func TestServeBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-listen", "0.0.0.0:8080"}, `-listen "0.0.0.0:8080": not a loopback address (127.0.0.0/8, ::1); pass -allow-remote to serve on it`},
		{[]string{"-listen", ":8080"}, `-listen ":8080": not a loopback address`},
		{[]string{"-listen", "localhost"}, `-listen "localhost": want host:port, e.g. 127.0.0.1:0`},
		{[]string{"-total_memories", "0"}, `invalid value "0" for flag -total_memories: total_memories = "0": want an integer from 1 to 4294967295`},
		{[]string{"-linear_memory_keep_resident", "2MB"}, `linear_memory_keep_resident = "2MB": want a number of bytes`},
		{[]string{"-settings-json", `{"total_memories":0}`}, `-settings-json: total_memories = "0": want an integer from 1`},
		{[]string{"-settings-json", `{"total_memroies":"64"}`}, `-settings-json: unknown setting "total_memroies"; did you mean total_memories?`},
		{[]string{"-settings-json", `[1]`}, `-settings-json: not a JSON object of settings`},
		{[]string{"-settings-json", `{"touch":[1]}`}, `-settings-json: touch: want a string, number or boolean, got [1]`},
		{[]string{"-timeout", "0s"}, `-timeout 0s: want a positive duration`},
		{[]string{"-gomaxprocs", "-1"}, `-gomaxprocs -1: want 0 or a positive number`},
		{[]string{"-cpus", "x"}, `-cpus: invalid CPU set "x"`},
		{[]string{"-log-level", "loud"}, `-log-level "loud": want debug, info, warn or error`},
		{[]string{"-no-such-flag"}, `flag provided but not defined: -no-such-flag`},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-memory_init_cow", "false"}, `unexpected argument "false": boolean flags take their value after '=', e.g. -memory_init_cow=false`},
		{[]string{"-plugin", "missing.wasm"}, `plugin: open missing.wasm: no such file or directory`},
		{[]string{"-plugin", "x.so"}, `plugin "x.so": want "workload" or a path to a .wasm or .wat file`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := serveUntil(context.Background(), tt.args, &stdout, &stderr)
			if code != 2 {
				t.Errorf("exit code %d, want 2", code)
			}
			line := stderr.String()
			if !strings.HasPrefix(line, "sweep serve: ") || strings.Count(line, "\n") != 1 || !strings.Contains(line, tt.want) {
				t.Errorf("stderr = %q, want one line \"sweep serve: ...%s...\"", line, tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout = %q, want nothing", stdout.String())
			}
		})
	}
}

func TestServeFlagsOverrideJSON(t *testing.T) {
	o, err := parseServeFlags([]string{
		"-settings-json", `{"total_memories":64,"touch":65536,"memory_init_cow":false,"io_wait":"1ms"}`,
		"-total_memories", "8", "-listen", "[::1]:0",
	}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s := o.settings
	if s.Uint(setting.TotalMemories) != 8 || s.Size(setting.Touch) != 64*units.KiB || !s.IsSet(setting.MemoryInitCOW) || s.Bool(setting.MemoryInitCOW) || s.Duration(setting.IOWait) != time.Millisecond {
		t.Errorf("settings = %v", s.Map())
	}
	if o.listen != "[::1]:0" || o.plugin != "workload" || o.timeout != 10*time.Second {
		t.Errorf("options = %+v", o)
	}
}

var readyRE = regexp.MustCompile(`^\{"event":"ready","addr":"(127\.0\.0\.1:\d+)","pid":(\d+)\}$`)

// readReady reads the first stdout line and checks it is the ready line.
func readReady(t *testing.T, r io.Reader) string {
	t.Helper()
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the ready line: %v", err)
	}
	m := readyRE.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
	if m == nil {
		t.Fatalf("first stdout line %q is not the ready line", line)
	}
	return m[1]
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestServeInProcess(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr lockedWriter
	done := make(chan int, 1)
	go func() {
		done <- serveUntil(ctx, []string{"-settings-json", `{"response_bytes":"1KiB","touch":"64KiB"}`, "-io_wait", "1ms", "-timeout", "2s"}, pw, &stderr)
		pw.Close()
	}()
	addr := readReady(t, pr)
	go io.Copy(io.Discard, pr)

	for i := 0; i < 3; i++ {
		code, body := get(t, "http://"+addr+"/")
		if code != 200 || len(body) != 1024 {
			t.Fatalf("GET /: %d, %d bytes", code, len(body))
		}
	}
	code, body := get(t, "http://"+addr+"/__sweep/stats")
	var st struct{ Requests, OK uint64 }
	if err := json.Unmarshal([]byte(body), &st); code != 200 || err != nil || st.Requests != 3 || st.OK != 3 {
		t.Errorf("stats: %d %s", code, body)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d after shutdown, want 0; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(shutdownTimeout + 5*time.Second):
		t.Fatal("serve did not stop after its context was canceled")
	}
	if s := stderr.String(); !strings.Contains(s, `msg=stopped requests=3 ok=3`) {
		t.Errorf("stderr has no final stats line:\n%s", s)
	}
}

// TestServeSIGTERM runs `sweep serve` in a child process (this test binary
// re-executed) and stops it with SIGTERM.
func TestServeSIGTERM(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeHelperProcess$", "--", "-response_bytes", "10")
	cmd.Env = append(os.Environ(), "SWEEP_SERVE_HELPER=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedWriter
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	addr := readReady(t, stdout)
	if code, body := get(t, "http://"+addr+"/"); code != 200 || len(body) != 10 {
		t.Errorf("GET /: %d %q", code, body)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Errorf("serve exited with %v after SIGTERM; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(shutdownTimeout + 10*time.Second):
		t.Fatal("serve did not exit after SIGTERM")
	}
}

// TestServeGOMAXPROCSFollowsCPUs: the built-in host runs as many Go
// threads as it has CPUs, whether it was born pinned (as sweep starts its
// servers) or pinned itself with -cpus.
func TestServeGOMAXPROCSFollowsCPUs(t *testing.T) {
	m, err := cpuset.ThisMachine()
	if err != nil {
		t.Fatal(err)
	}
	first := m.Usable[:1]
	tests := []struct {
		name  string
		born  cpuset.Set
		flags []string
		want  int
	}{
		{"born on one CPU", first, nil, 1},
		{"-cpus one CPU", nil, []string{"-cpus", first.String()}, 1},
		{"born on every usable CPU", m.Usable, nil, len(m.Usable)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestServeHelperProcess$", "--"}, tt.flags...)...)
			cmd.Env = append(os.Environ(), "SWEEP_SERVE_HELPER=1")
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr lockedWriter
			cmd.Stderr = &stderr
			if err := cpuset.StartPinned(cmd, tt.born); err != nil {
				t.Fatal(err)
			}
			defer func() { cmd.Process.Kill(); cmd.Wait() }()
			readReady(t, stdout)
			want := fmt.Sprintf(" gomaxprocs=%d ", tt.want)
			deadline := time.Now().Add(10 * time.Second)
			for !strings.Contains(stderr.String(), " msg=serving ") && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if s := stderr.String(); !strings.Contains(s, want) {
				t.Errorf("serving line lacks %q:\n%s", want, s)
			}
		})
	}
}

// TestServeHelperProcess is `sweep serve` for TestServeSIGTERM.
func TestServeHelperProcess(t *testing.T) {
	if os.Getenv("SWEEP_SERVE_HELPER") != "1" {
		t.Skip("helper process for TestServeSIGTERM")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(runServe(args, os.Stdout, os.Stderr))
}

// lockedWriter is a bytes.Buffer safe for concurrent writes and reads.
type lockedWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeKnobFlagsAtZero: a knob flag given as zero (-touch 0,
// -component=false) is accepted, and overrides the JSON's value.
func TestServeKnobFlagsAtZero(t *testing.T) {
	o, err := parseServeFlags([]string{
		"-settings-json", `{"touch":"64KiB","component":true}`,
		"-touch", "0", "-component=false",
	}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if s := o.settings; s.IsSet(setting.Touch) || s.IsSet(setting.Component) || s.Bool(setting.Component) {
		t.Errorf("settings = %v, want touch and component unset", s.Map())
	}
}
