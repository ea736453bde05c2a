package config

import (
	"github.com/sweep-dev/sweep/sweep/units"

	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/cpuset"
	"github.com/sweep-dev/sweep/sweep/grid"
	"github.com/sweep-dev/sweep/sweep/setting"
)

// parse parses text as the file dir/name.toml and fails the test on error.
func parse(t *testing.T, text string) *Config {
	t.Helper()
	c, err := Parse(filepath.Join(t.TempDir(), "test.toml"), []byte(text))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

// withOnline replaces the CPU probe for one test: every online CPU
// usable, each its own core.
func withOnline(t *testing.T, online string) {
	t.Helper()
	withMachine(t, online, online)
}

// withMachine replaces the CPU probe for one test: online CPUs of which
// this process may use usable, each its own core.
func withMachine(t *testing.T, online, usable string) {
	t.Helper()
	on, err := cpuset.Parse(online)
	if err != nil {
		t.Fatal(err)
	}
	us, err := cpuset.Parse(usable)
	if err != nil {
		t.Fatal(err)
	}
	old := thisMachine
	thisMachine = func() (cpuset.Machine, error) { return cpuset.Machine{Online: on, Usable: us}, nil }
	t.Cleanup(func() { thisMachine = old })
}

func TestDefaults(t *testing.T) {
	withOnline(t, "0-3")
	c := parse(t, "")
	if c.Name != "test" {
		t.Errorf("Name = %q, want the file's base name %q", c.Name, "test")
	}
	want := Target{Kind: "builtin", Plugin: "workload", ReadyTimeout: 15 * time.Second}
	if !reflect.DeepEqual(c.Target, want) {
		t.Errorf("Target = %+v, want %+v", c.Target, want)
	}
	wantLoad := LoadSpec{Concurrency: []int{1, 4, 16}, Warmup: 2 * time.Second, Duration: 3 * time.Second,
		Timeout: 5 * time.Second, Rounds: DefaultRounds, Slice: DefaultSlice, AA: true, Method: "GET", Path: "/"}
	if !reflect.DeepEqual(c.Load, wantLoad) {
		t.Errorf("Load = %+v, want %+v", c.Load, wantLoad)
	}
	wantRun := Run{ServerCPUs: cpuset.Set{0, 1}, LoadCPUs: cpuset.Set{2, 3}, CPURule: "4 usable CPUs: half of them (2) for the server, the rest for the load generator", Seed: 1, Restarts: "round", BlockSize: DefaultBlockSize, MaxRestarts: 3, Remeasure: true, KeepAwake: true, ServerSched: "other"}
	if !reflect.DeepEqual(c.Run, wantRun) {
		t.Errorf("Run = %+v, want %+v", c.Run, wantRun)
	}
	wantAnalysis := Analysis{Objective: "cpu_per_req", TargetConcurrency: 16, CliffErrorRate: 0.001, Confidence: 0.95, Resolve: 0.02}
	if c.Analysis != wantAnalysis {
		t.Errorf("Analysis = %+v, want %+v", c.Analysis, wantAnalysis)
	}
	// The empty grid is one point, the target's defaults, which is the baseline.
	if len(c.Axes) != 0 || len(c.Points) != 1 || len(c.Points[0]) != 0 || len(c.Baseline) != 0 {
		t.Errorf("empty grid: Axes %v Points %v Baseline %v, want no axes, one empty point and an empty baseline",
			c.Axes, c.Points, c.Baseline)
	}
	if !c.Load.AA {
		t.Errorf("Load.AA = false, want the A/A twin by default")
	}
	if len(c.Fixed) != 0 {
		t.Errorf("Fixed = %v, want empty", c.Fixed)
	}
}

func TestParseValues(t *testing.T) {
	c := parse(t, `
name = "two-axes"
[workload]
io_wait = "1ms"
[settings]
total_memories = 64
memory_init_cow = false
[grid]
touch = ["4KiB", 65536]
linear_memory_keep_resident = [0, "64KiB", "1MiB"]
[baseline]
linear_memory_keep_resident = 65536
[load]
concurrency = [16, 1, 4]
rounds = 2
warmup = "500ms"
duration = "1s"
method = "POST"
path = "/run?x=1"
body = "hello"
headers = { X-Test = "1" }
[run]
seed = -7
restarts = "round"
max_restarts = 0
keep_awake = false
remeasure = false
reference = true
server_sched = "batch"
[analysis]
objective = "success_rps"
target_concurrency = 4
cliff_error_rate = 0
`)
	if c.Name != "two-axes" {
		t.Errorf("Name = %q", c.Name)
	}
	wantAxes := []grid.Axis{
		{Name: "touch", Values: []string{"4KiB", "65536"}},
		{Name: "linear_memory_keep_resident", Values: []string{"0", "64KiB", "1MiB"}},
	}
	if !reflect.DeepEqual(c.Axes, wantAxes) {
		t.Errorf("Axes = %v, want %v (file order, canonical values)", c.Axes, wantAxes)
	}
	if !reflect.DeepEqual(c.Points, grid.Expand(wantAxes)) || len(c.Points) != 6 {
		t.Errorf("Points = %v, want grid.Expand(Axes)", c.Points)
	}
	wantBase := sweep.Point{"touch": "4KiB", "linear_memory_keep_resident": "64KiB"}
	if !c.Baseline.Equal(wantBase) {
		t.Errorf("Baseline = %v, want %v (65536 matched to the written \"64KiB\", touch completed with its first value)", c.Baseline, wantBase)
	}
	wantFixed := map[string]string{"io_wait": "1ms", "total_memories": "64", "memory_init_cow": "false"}
	if !reflect.DeepEqual(c.Fixed, wantFixed) {
		t.Errorf("Fixed = %v, want %v", c.Fixed, wantFixed)
	}
	if !reflect.DeepEqual(c.Load.Concurrency, []int{1, 4, 16}) {
		t.Errorf("Concurrency = %v, want sorted [1 4 16]", c.Load.Concurrency)
	}
	if c.Load.Rounds != 2 || c.Load.Warmup != 500*time.Millisecond || c.Load.Duration != time.Second ||
		c.Load.Method != "POST" || c.Load.Path != "/run?x=1" || c.Load.Body != "hello" ||
		!reflect.DeepEqual(c.Load.Headers, map[string]string{"X-Test": "1"}) {
		t.Errorf("Load = %+v", c.Load)
	}
	if c.Run.Seed != -7 || c.Run.Restarts != "round" || c.Run.MaxRestarts != 0 || c.Run.KeepAwake || c.Run.Remeasure || !c.Run.Reference || c.Run.ServerSched != "batch" {
		t.Errorf("Run = %+v", c.Run)
	}
	want := Analysis{Objective: "success_rps", TargetConcurrency: 4, CliffErrorRate: 0, Confidence: 0.95, Resolve: 0.02}
	if c.Analysis != want {
		t.Errorf("Analysis = %+v, want %+v", c.Analysis, want)
	}
	// restarts = "round": 7 slots × 3 levels × 2 × (0.5s + 1s) = 63s
	if got, want := statedTime(c), 63*time.Second; got != want {
		t.Errorf("statedTime = %v, want %v", got, want)
	}
}

func TestRawIsKept(t *testing.T) {
	text := "# comment\n[load]\nrounds = 3\n"
	c := parse(t, text)
	if string(c.Raw) != text || !strings.HasSuffix(c.Path, "test.toml") {
		t.Errorf("Raw = %q Path = %q", c.Raw, c.Path)
	}
}

func TestSinglePointAxisNeedsAA(t *testing.T) {
	c := parse(t, "[grid]\ntotal_memories = [16]\n")
	if len(c.Points) != 1 || c.Points[0]["total_memories"] != "16" || c.Baseline["total_memories"] != "16" {
		t.Errorf("Points %v Baseline %v", c.Points, c.Baseline)
	}
	_, err := Parse("one.toml", []byte("[grid]\ntotal_memories = [16]\n[load]\naa = false\n"))
	if err == nil || !strings.Contains(err.Error(), "single point") {
		t.Errorf("aa = false with one point: err = %v, want the single-point error", err)
	}
	c = parse(t, "[grid]\ntotal_memories = [16, 1000]\n[load]\naa = false\n")
	if c.Load.AA || len(c.Points) != 2 {
		t.Errorf("aa = false with two points: AA %v points %d", c.Load.AA, len(c.Points))
	}
}

func TestCPUDefaults(t *testing.T) {
	tests := []struct {
		online, usable, text string
		server, load         string
	}{
		{"0-1", "", "", "0", "1"},
		{"0-7", "", "", "0-3", "4-7"},
		{"0-15", "", "", "0-7", "8-15"},
		{"0-7", "2-3,6", "", "2", "3,6"}, // restricted affinity: only what this process may use
		{"0-7", "5", "", "", ""},
		{"2-3", "", "", "2", "3"},
		{"0", "", "", "", ""},
		{"0-3", "", `[run]` + "\n" + `server_cpus = "0-1"`, "0-1", "2-3"},
		{"0-3", "", `[run]` + "\n" + `load_cpus = 3`, "0-2", "3"},
		{"0-7", "0-3", `[run]` + "\n" + `load_cpus = 3`, "0-2", "3"},
		{"0-1", "", `[run]` + "\n" + `server_cpus = "0-1"`, "0-1", ""},
		{"0-3", "", `[run]` + "\n" + `server_cpus = ""` + "\n" + `load_cpus = ""`, "", ""},
		{"0-3", "", `[run]` + "\n" + `server_cpus = "2"` + "\n" + `load_cpus = "0,3"`, "2", "0,3"},
	}
	for _, tt := range tests {
		t.Run(tt.online+" "+tt.usable+" "+strings.ReplaceAll(tt.text, "\n", " "), func(t *testing.T) {
			usable := tt.usable
			if usable == "" {
				usable = tt.online
			}
			withMachine(t, tt.online, usable)
			c := parse(t, tt.text)
			if got := c.Run.ServerCPUs.String(); got != tt.server {
				t.Errorf("ServerCPUs = %q, want %q", got, tt.server)
			}
			if got := c.Run.LoadCPUs.String(); got != tt.load {
				t.Errorf("LoadCPUs = %q, want %q", got, tt.load)
			}
			if tt.text == "" && c.Run.CPURule == "" {
				t.Error("defaulted CPUs without a rule")
			}
		})
	}
}

// TestCPUsNotUsable: a CPU that is online but outside this process's
// affinity is refused with one line naming the key and what is usable.
func TestCPUsNotUsable(t *testing.T) {
	withMachine(t, "0-7", "0-3")
	_, err := Parse("grid.toml", []byte("[run]\nserver_cpus = \"5\"\n"))
	want := `grid.toml: run.server_cpus = "5": CPU 5 not usable by this process (its affinity or cgroup cpuset allows CPUs 0-3)`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestPluginFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "mods"), 0o755); err != nil {
		t.Fatal(err)
	}
	wasm := filepath.Join(dir, "mods", "echo.wasm")
	if err := os.WriteFile(wasm, []byte("\x00asm\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "mods", "short.wasm")
	if err := os.WriteFile(short, []byte("\x00as"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sweep.toml")
	c, err := Parse(path, []byte("[target]\nplugin = \"mods/echo.wasm\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Target.Plugin != wasm {
		t.Errorf("Plugin = %q, want the absolute path %q", c.Target.Plugin, wasm)
	}
	_, err = Parse(path, []byte("[target]\nplugin = \"mods/short.wasm\"\n"))
	if err == nil || !strings.Contains(err.Error(), "not a binary wasm module") {
		t.Errorf("3-byte plugin: err = %v, want the wasm-magic error", err)
	}
}

func TestCommandTarget(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	server := filepath.Join(dir, "bin", "server")
	if err := os.WriteFile(server, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "configs"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "configs", "cmd.toml")
	c, err := Parse(path, []byte(`
[target]
kind = "command"
command = ["../bin/server", "--listen=127.0.0.1:{{ port }}"]
env = { KEEP = "{{keep}}", MODE = "fast" }
ready = "http://localhost:{{port}}/healthz"
[grid]
keep = [0, "64KiB", true]
[load]
path = "/work"
`))
	if err != nil {
		t.Fatal(err)
	}
	tg := c.Target
	if tg.Command[0] != server {
		t.Errorf("Command[0] = %q, want the resolved %q", tg.Command[0], server)
	}
	if tg.URL != DefaultURL || tg.Ready != "http://localhost:{{port}}/healthz" {
		t.Errorf("URL %q Ready %q", tg.URL, tg.Ready)
	}
	if !reflect.DeepEqual(c.Axes, []grid.Axis{{Name: "keep", Values: []string{"0", "64KiB", "true"}}}) {
		t.Errorf("Axes = %v", c.Axes)
	}
	if len(c.Fixed) != 0 {
		t.Errorf("Fixed = %v, want empty for a command target", c.Fixed)
	}
	p := c.Points[1]
	vars := c.Vars(p, 8081)
	if !reflect.DeepEqual(vars, map[string]string{"keep": "64KiB", "port": "8081"}) {
		t.Errorf("Vars = %v", vars)
	}
	arg, err := Render(tg.Command[1], vars)
	if err != nil || arg != "--listen=127.0.0.1:8081" {
		t.Errorf("Render(command[1]) = %q, %v", arg, err)
	}
	if u, err := c.RequestURL(p, 8081); err != nil || u != "http://127.0.0.1:8081/work" {
		t.Errorf("RequestURL = %q, %v", u, err)
	}
	if u, err := c.ReadyURL(p, 8081); err != nil || u != "http://localhost:8081/healthz" {
		t.Errorf("ReadyURL = %q, %v", u, err)
	}

	// argv[0] without a slash is looked up on PATH.
	c, err = Parse(path, []byte("[target]\nkind = \"command\"\ncommand = [\"sh\", \"-c\", \"serve {{port}}\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(c.Target.Command[0]) || filepath.Base(c.Target.Command[0]) != "sh" {
		t.Errorf("Command[0] = %q, want the absolute path of sh", c.Target.Command[0])
	}
}

func TestAutoRoundsConfig(t *testing.T) {
	c := parse(t, "[load]\nrounds = \"auto\"\nmax_rounds = 20\n[analysis]\nresolve = \"1.5%\"\n[run]\nbudget = \"4m\"\n")
	if !c.Load.Auto || c.Load.MinRounds != 0 || c.Load.MaxRounds != 20 || c.Load.Rounds != 20 || c.Run.Budget != 4*time.Minute || math.Abs(c.Analysis.Resolve-0.015) > 1e-12 {
		t.Errorf("Load %+v Run.Budget %v Resolve %v", c.Load, c.Run.Budget, c.Analysis.Resolve)
	}
	if c := parse(t, "[analysis]\nresolve = 0.03\n"); c.Load.Auto || c.Analysis.Resolve != 0.03 {
		t.Errorf("numeric resolve: %v, auto %v", c.Analysis.Resolve, c.Load.Auto)
	}
}

// TestFractionKeys: a share key takes a TOML number, a percentage string
// or a fraction string (units.ParseFraction); a bad one is a one-line
// error naming the key, the value and what is allowed.
func TestFractionKeys(t *testing.T) {
	for _, text := range []string{"resolve = 0.03", `resolve = "3%"`, `resolve = "0.03"`, `resolve = " 3 % "`} {
		if c := parse(t, "[analysis]\n"+text+"\n"); c.Analysis.Resolve != 0.03 {
			t.Errorf("%s: Resolve = %v, want 0.03", text, c.Analysis.Resolve)
		}
	}
	for _, tt := range []struct{ text, want string }{
		{`resolve = "lots"`, `test.toml: analysis.resolve = "lots": "lots" is not a number: want a fraction such as 0.05 or a percentage such as "5%"`},
		{`resolve = "3"`, `test.toml: analysis.resolve = "3": 3 without a % sign is a fraction, 300%: write 3% for 3 percent (or 0.03 as a fraction)`},
		{`resolve = "0%"`, `test.toml: analysis.resolve = "0%": want a fraction such as 0.02 or a percentage such as "2%", above 0 and below 1`},
		{`resolve = "100%"`, `test.toml: analysis.resolve = "100%": want a fraction such as 0.02 or a percentage such as "2%", above 0 and below 1`},
		{`resolve = true`, `test.toml: analysis.resolve = true: a boolean is not allowed; want a fraction such as 0.02 or a percentage such as "2%", above 0 and below 1`},
	} {
		_, err := Parse(filepath.Join(t.TempDir(), "test.toml"), []byte("[analysis]\n"+tt.text+"\n"))
		if err == nil || !strings.HasSuffix(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one ending %q", tt.text, err, tt.want)
		}
	}
}

// TestTemplatedProgram: argv[0] may be a template of axes (two builds in
// one run); every rendered program must exist, relative to the config.
func TestTemplatedProgram(t *testing.T) {
	dir := t.TempDir()
	for _, exe := range []string{"old", "new"} {
		if err := os.WriteFile(filepath.Join(dir, exe), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := func(builds string) []byte {
		return []byte("[target]\nkind = \"command\"\ncommand = [\"./{{build}}\", \"{{port}}\"]\n[grid]\nbuild = [" + builds + "]\n")
	}
	c, err := Parse(filepath.Join(dir, "gate.toml"), cfg(`"old", "new"`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"./old": filepath.Join(dir, "old"), "./new": filepath.Join(dir, "new")}
	if !reflect.DeepEqual(c.Target.Programs, want) || c.Target.Command[0] != "./{{build}}" {
		t.Errorf("Programs %v, Command[0] %q; want %v and the template kept", c.Target.Programs, c.Target.Command[0], want)
	}
	_, err = Parse(filepath.Join(dir, "gate.toml"), cfg(`"old", "gone"`))
	if err == nil || !strings.Contains(err.Error(), `target.command[0] = "./{{build}}" ("./gone" after substitution): no executable found at `+filepath.Join(dir, "gone")) {
		t.Errorf("a missing build: err = %v", err)
	}
}

func TestAllowRemote(t *testing.T) {
	c := parse(t, `
[target]
kind = "command"
command = ["sh", "-c", "serve {{port}}"]
url = "http://10.1.2.3:{{port}}"
allow_remote = true
`)
	if u, err := c.RequestURL(sweep.Point{}, 80); err != nil || u != "http://10.1.2.3:80/" {
		t.Errorf("RequestURL = %q, %v", u, err)
	}
}

func TestBuiltinURLs(t *testing.T) {
	c := parse(t, "[load]\npath = \"/x\"\n")
	if u, err := c.RequestURL(sweep.Point{}, 9000); err != nil || u != "http://127.0.0.1:9000/x" {
		t.Errorf("RequestURL = %q, %v", u, err)
	}
	if u, err := c.ReadyURL(sweep.Point{}, 9000); err != nil || u != "http://127.0.0.1:9000/x" {
		t.Errorf("ReadyURL = %q, %v", u, err)
	}
}

func TestNameFromFile(t *testing.T) {
	_, err := Parse(filepath.Join(t.TempDir(), ".hidden.toml"), nil)
	if err == nil || !strings.Contains(err.Error(), `set name = "..."`) {
		t.Errorf("err = %v, want the hint to set name", err)
	}
}

// TestReferenceCoversKeys keeps the config reference complete: docs/CONFIG.md
// has a section for every top-level table, each with a table row for every
// key of its table, and links the [workload] and [settings] sections to
// docs/settings.md, which has a row for every workload knob under its
// [workload] heading and for every Wasmtime option under its [settings]
// heading.
func TestReferenceCoversKeys(t *testing.T) {
	const configDoc, settingsDoc = "../../docs/CONFIG.md", "../../docs/settings.md"
	var knobs, options []string
	for _, o := range setting.Options() {
		if o.Knob {
			knobs = append(knobs, o.Name)
		} else {
			options = append(options, o.Name)
		}
	}
	type want struct {
		doc, section string
		keys         []string // each must start a table row, | `key` |, in the section
		mentions     []string // each must appear verbatim in the section
	}
	wants := []want{
		{doc: configDoc, section: "Top level", keys: []string{"name"}},
		{doc: configDoc, section: "[workload]", mentions: []string{"settings.md"}},
		{doc: configDoc, section: "[settings]", mentions: []string{"settings.md"}},
		{doc: settingsDoc, section: "[workload]", keys: knobs},
		{doc: settingsDoc, section: "[settings]", keys: options},
	}
	for _, table := range schema[""] {
		if table != "name" {
			wants = append(wants, want{doc: configDoc, section: "[" + table + "]", keys: schema[table]})
		}
	}
	docs := map[string]string{}
	for _, d := range []string{configDoc, settingsDoc} {
		b, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		docs[d] = string(b)
	}
	for _, w := range wants {
		body, ok := docSection(docs[w.doc], w.section)
		if !ok {
			t.Errorf("%s has no section headed %q", w.doc, w.section)
			continue
		}
		for _, k := range w.keys {
			if !strings.Contains("\n"+body, "\n| `"+k+"` |") {
				t.Errorf("%s, section %s, has no table row for `%s`", w.doc, w.section, k)
			}
		}
		for _, m := range w.mentions {
			if !strings.Contains(body, m) {
				t.Errorf("%s, section %s, does not mention %s", w.doc, w.section, m)
			}
		}
	}
}

// docSection returns the body of the Markdown section whose heading text
// is title or starts with it (for a table: "[load]" matches "## [load] —
// …"), up to the next heading of the same or a higher level. Lines inside
// fenced code blocks are never headings.
func docSection(doc, title string) (string, bool) {
	lines := strings.Split(doc, "\n")
	level := make([]int, len(lines)) // heading level of each line, 0 if none
	fenced := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		if n := len(l) - len(strings.TrimLeft(l, "#")); !fenced && n > 0 && strings.HasPrefix(l[n:], " ") {
			level[i] = n
		}
	}
	for i, l := range lines {
		if level[i] == 0 {
			continue
		}
		if text := strings.TrimSpace(l[level[i]:]); text != title && !strings.HasPrefix(text, title+" ") {
			continue
		}
		end := i + 1
		for end < len(lines) && (level[end] == 0 || level[end] > level[i]) {
			end++
		}
		return strings.Join(lines[i+1:end], "\n"), true
	}
	return "", false
}

// TestSlices: load.slice splits a window into duration/slice pieces,
// rounded; "0" keeps it whole; the default is 50 ms pieces, capped at
// the window.
func TestSlices(t *testing.T) {
	for _, tc := range []struct {
		toml string
		want int
	}{
		{"[load]\nduration = \"2s\"\n", 40},
		{"[load]\nduration = \"30ms\"\n", 1},
		{"[load]\nduration = \"120ms\"\n", 2},
		{"[load]\nduration = \"2s\"\nslice = \"50ms\"\n", 40},
		{"[load]\nduration = \"2s\"\nslice = \"0\"\n", 1},
		{"[load]\nduration = \"2s\"\nslice = \"0s\"\n", 1},
		{"[load]\nduration = \"3s\"\nslice = \"70ms\"\n", 43},
		{"[load]\nduration = \"2s\"\nslice = \"2s\"\n", 1},
	} {
		c, err := Parse("slices.toml", []byte(tc.toml))
		if err != nil {
			t.Fatalf("%q: %v", tc.toml, err)
		}
		if got := c.Load.Slices(); got != tc.want {
			t.Errorf("%q: Slices() = %d, want %d (slice %v)", tc.toml, got, tc.want, c.Load.Slice)
		}
		if got, want := c.Load.Piece(), c.Load.Duration/time.Duration(tc.want); got != want {
			t.Errorf("%q: Piece() = %v, want %v", tc.toml, got, want)
		}
	}
}

// TestBudgets reads analysis.max_rss and max_reserved as sizes (a unit
// string or a byte count) and leaves them 0 (no budget) when absent.
func TestBudgets(t *testing.T) {
	tests := []struct {
		in        string
		rss, resv units.Size
	}{
		{"", 0, 0},
		{"[analysis]\nmax_rss = \"40MiB\"\n", 40 << 20, 0},
		{"[analysis]\nmax_rss = 1048576\nmax_reserved = \"2TiB\"\n", 1 << 20, 2 << 40},
	}
	for _, tt := range tests {
		c := parse(t, tt.in)
		if c.Analysis.MaxRSS != tt.rss || c.Analysis.MaxReserved != tt.resv {
			t.Errorf("%q: max_rss %v max_reserved %v, want %v %v", tt.in, c.Analysis.MaxRSS, c.Analysis.MaxReserved, tt.rss, tt.resv)
		}
	}
}
