package config

import (
	"errors"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// badCases maps every fixture in testdata/bad to substrings its error must
// contain (besides the path prefix, checked for all).
var badCases = map[string][]string{
	"malformed.toml":                    {"line 2: malformed TOML", "table name"},
	"malformed-value.toml":              {"line 2: malformed TOML"},
	"duplicate-key.toml":                {"line 3: malformed TOML", "load.rounds", "already been defined"},
	"unknown-key.toml":                  {`unknown key "load.concurency" (did you mean "load.concurrency"?)`},
	"unknown-section.toml":              {`unknown key "laod" (did you mean "load"?)`},
	"unknown-top-level.toml":            {`unknown key "touch"`, `"workload.touch"`, `"grid.touch"`},
	"misplaced-key.toml":                {`unknown key "load.server_cpus" (did you mean "run.server_cpus"?)`},
	"key-case.toml":                     {`unknown key "load.Concurrency" (did you mean "load.concurrency"?)`},
	"section-not-table.toml":            {"load = 5", "an integer is not allowed", "want a table ([load])"},
	"rounds-string.toml":                {`load.rounds = "5"`, `want an integer from 1 to 1000, "auto" or "race"`},
	"rounds-auto-max-below-min.toml":    {"load.max_rounds = 10", "below load.min_rounds = 12"},
	"max-rounds-without-auto.toml":      {"load.max_rounds", `only with load.rounds = "auto" or "race"`},
	"budget-without-auto.toml":          {"run.budget", `only with load.rounds = "auto" or "race"`},
	"finalists-zero.toml":               {"analysis.finalists = 0", "want an integer from 1 to 100"},
	"finalists-without-race.toml":       {"analysis.finalists", `only with load.rounds = "race"`},
	"race-clip-no-percent.toml":         {`analysis.race_clip = "5": 5 without a % sign is a fraction, 500%: write 5% for 5 percent (or 0.05 as a fraction)`},
	"race-clip-too-big.toml":            {"analysis.race_clip = 1.5", "above 0 and below 1"},
	"race-clip-without-race.toml":       {"analysis.race_clip", `only with load.rounds = "race"`},
	"race-single-point.toml":            {`load.rounds = "race"`, "nothing to race"},
	"race-min-rounds.toml":              {"load.min_rounds", `only with load.rounds = "auto"`},
	"race-max-rounds-one.toml":          {"load.max_rounds = 1", "want an integer from 2 to 1000"},
	"resolve-no-percent.toml":           {`analysis.resolve = "2": 2 without a % sign is a fraction, 200%: write 2% for 2 percent (or 0.02 as a fraction)`},
	"resolve-too-big.toml":              {"analysis.resolve = 1.5", "above 0 and below 1"},
	"confidence-one.toml":               {"analysis.confidence = 1", "want a number from 0.5 up to (not including) 1"},
	"slice-too-short.toml":              {`load.slice = "5ms"`, `"0" (one piece per window) or a Go duration from 10ms up to load.duration (3s)`},
	"slice-longer-than-window.toml":     {`load.slice = "3s"`, "up to load.duration (2s)"},
	"slice-integer.toml":                {"load.slice = 50", "an integer is not allowed"},
	"slice-words.toml":                  {`load.slice = "fast"`, "not a duration"},
	"rounds-zero.toml":                  {"load.rounds = 0", "want an integer from 1 to 1000"},
	"aa-string.toml":                    {`load.aa = "yes"`, "want true or false"},
	"axis-empty.toml":                   {"grid.linear_memory_keep_resident = []", "at least one value"},
	"axis-not-array.toml":               {"grid.linear_memory_keep_resident = 0", "want an array of values"},
	"axis-table.toml":                   {"grid.linear_memory_keep_resident = (table)", "want an array of values"},
	"axis-float.toml":                   {"grid.total_memories[0] = 1.5", "a float is not allowed", "integer, a string or a boolean"},
	"axis-duplicate.toml":               {"grid.linear_memory_keep_resident[2] = 65536", `duplicate of grid.linear_memory_keep_resident[1] = "64KiB"`},
	"axis-duplicate-duration.toml":      {`grid.io_wait[1] = "1000us"`, `duplicate of grid.io_wait[0] = "1ms"`},
	"axis-duplicate-command.toml":       {"grid.keep[1] = 1048576", `duplicate of grid.keep[0] = "1MiB"`},
	"size-si-unit.toml":                 {`grid.linear_memory_keep_resident[1] = "2MB"`, "binary unit", "SI units like MB are not accepted"},
	"size-negative.toml":                {"grid.linear_memory_keep_resident[0] = -1", "want a number of bytes"},
	"size-fraction.toml":                {`workload.touch = "1.5KiB"`, "want a number of bytes"},
	"count-zero.toml":                   {"grid.total_memories[1] = 0", "want an integer from 1 to 4294967295"},
	"bool-axis-bad.toml":                {`grid.memory_init_cow[1] = "yes"`, "want true or false"},
	"max-memory-too-small.toml":         {`settings.max_memory_size = "4KiB"`, "want a number of bytes", "64KiB"},
	"unknown-axis.toml":                 {`unknown key "grid.linear_memory_keep_resdent"`, `did you mean "grid.linear_memory_keep_resident"?`},
	"unknown-setting.toml":              {`unknown key "settings.total_memory"`, `did you mean "settings.total_memories"?`},
	"unknown-knob.toml":                 {`unknown key "workload.tuch"`, `did you mean "workload.touch"?`},
	"workload-not-knob.toml":            {"workload.total_memories", "not a workload knob; put it in [settings]"},
	"settings-knob.toml":                {"settings.touch", "workload knob; put it in [workload]"},
	"fixed-and-axis.toml":               {"grid.total_memories", "also set in [workload] or [settings]", "either fixed or an axis"},
	"grid-too-big.toml":                 {"[grid] has more than 1000 points"},
	"concurrency-zero.toml":             {"load.concurrency[0] = 0", "want an integer from 1 to 10000"},
	"concurrency-too-big.toml":          {"load.concurrency[1] = 10001", "want an integer from 1 to 10000"},
	"concurrency-duplicate.toml":        {"load.concurrency[2] = 1", "duplicate of load.concurrency[0]"},
	"concurrency-empty.toml":            {"load.concurrency = []", "want 1 to 64 levels"},
	"concurrency-scalar.toml":           {"load.concurrency = 4", "want an array of concurrency levels"},
	"concurrency-string.toml":           {`load.concurrency[1] = "4"`, "a string is not allowed"},
	"duration-zero.toml":                {`load.duration = "0s"`, "must be > 0", "Go duration"},
	"duration-negative.toml":            {`load.warmup = "-1s"`, "must be > 0"},
	"duration-integer.toml":             {"load.warmup = 2", "an integer is not allowed", `Go duration string such as "500ms"`},
	"duration-words.toml":               {`load.timeout = "2 seconds"`, "not a duration"},
	"duration-too-long.toml":            {`load.duration = "2h"`, "longer than 1h0m0s"},
	"baseline-not-in-grid.toml":         {`baseline.linear_memory_keep_resident = "1MiB"`, "not a value of grid.linear_memory_keep_resident = [0, 64KiB]"},
	"baseline-unknown-axis.toml":        {"baseline.touch: not a grid axis", "linear_memory_keep_resident"},
	"baseline-empty-grid.toml":          {"baseline.linear_memory_keep_resident: not a grid axis", "the grid is empty"},
	"aa-false-single-point.toml":        {"load.aa = false", "single point", "keep aa = true"},
	"plugin-missing.toml":               {`target.plugin = "missing.wasm"`, "no such file", "testdata/bad/missing.wasm"},
	"plugin-not-wasm.toml":              {`target.plugin = "not-wasm.wasm"`, "not a binary wasm module"},
	"component-with-file.toml":          {"workload.component", `only for target.plugin = "workload"`},
	"plugin-directory.toml":             {`target.plugin = "../bad/"`, "not a regular file"},
	"plugin-unknown-name.toml":          {`target.plugin = "workloads"`, `want "workload" or the path of a .wasm file`},
	"kind-bad.toml":                     {`target.kind = "docker"`, `want one of "builtin" or "command"`},
	"builtin-url.toml":                  {"target.url", `only allowed with target.kind = "command"`},
	"command-gomaxprocs.toml":           {"target.gomaxprocs", `only allowed with target.kind = "builtin"`},
	"command-missing.toml":              {"target.command: required"},
	"command-empty.toml":                {"target.command = []", "at least the program"},
	"command-not-found.toml":            {`target.command[0] = "./no-such-server"`, "no executable found", "testdata/bad/no-such-server"},
	"command-not-on-path.toml":          {`target.command[0] = "no-such-sweep-server-xyz"`, "no executable found on PATH"},
	"command-workload.toml":             {"[workload]", `only allowed with target.kind = "builtin"`},
	"command-axis-name.toml":            {"grid.keep-resident", `axis name "keep-resident" is not allowed`},
	"command-axis-port.toml":            {"grid.port", `axis name "port" is not allowed`},
	"template-unknown-var.toml":         {"target.command[2]", `unknown template variable "kep"`, "known: port, keep"},
	"template-unclosed.toml":            {"target.command[2]", `unclosed "{{"`},
	"axis-unused.toml":                  {"grid.keep", "uses {{keep}}"},
	"command-no-port.toml":              {"target.command", "uses {{port}}"},
	"url-no-port.toml":                  {"target.url: must use {{port}}"},
	"url-remote.toml":                   {`target.url = "http://10.0.0.1:{{port}}/"`, "not loopback", "allow_remote"},
	"url-path.toml":                     {`target.url = "http://127.0.0.1:{{port}}/api"`, "load.path"},
	"url-scheme.toml":                   {`target.url = "tcp://127.0.0.1:{{port}}/"`, "want http:// or https://"},
	"ready-remote.toml":                 {"target.ready", `host "example.com" is not loopback`},
	"env-name.toml":                     {"target.env.BAD-NAME", "environment variable name"},
	"cpus-offline.toml":                 {`run.server_cpus = "999"`, "CPU 999 not online"},
	"cpus-overlap.toml":                 {`run.server_cpus = "0" and run.load_cpus = "0" overlap`},
	"cpus-syntax.toml":                  {`run.server_cpus = "0-"`, "want a CPU list"},
	"restarts-bad.toml":                 {`run.restarts = "always"`, `want one of "never" or "round"`},
	"max-restarts-negative.toml":        {"run.max_restarts = -1", "want an integer from 0 to 1000"},
	"block-size-zero.toml":              {"run.block_size = 0", "want an integer from 1 to 1000"},
	"keep-awake-string.toml":            {`run.keep_awake = "yes"`, "want true or false"},
	"remeasure-number.toml":             {`run.remeasure = 1`, "want true or false"},
	"reference-string.toml":             {`run.reference = "builtin"`, "want true or false"},
	"server-sched-bad.toml":             {`run.server_sched = "fifo"`, `want one of "other" or "batch"`},
	"objective-bad.toml":                {`analysis.objective = "rps"`, `want one of "cpu_per_req" or "success_rps"`},
	"target-concurrency-not-level.toml": {"analysis.target_concurrency = 8", "not one of load.concurrency = [1, 4, 16]"},
	"cliff-rate-too-big.toml":           {"analysis.cliff_error_rate = 1.5", "want a number from 0 up to"},
	"name-bad.toml":                     {`name = "../x"`, "want letters, digits"},
	"method-lowercase.toml":             {`load.method = "get"`, `"GET"`},
	"path-relative.toml":                {`load.path = "api"`, `starting with "/"`},
	"header-name.toml":                  {"load.headers.Bad Header", "HTTP header name"},
	"header-host.toml":                  {"load.headers.Host", "may not be overridden"},
	"gomaxprocs-negative.toml":          {"target.gomaxprocs = -1", "want an integer from 0 to 1024"},
	"max-rss-si.toml":                   {`analysis.max_rss = "40MB"`, `want a size above 0`, `"2GiB"`},
	"max-rss-zero.toml":                 {"analysis.max_rss = 0", `want a size above 0`},
	"max-reserved-float.toml":           {"analysis.max_reserved = 1.5", "a float is not allowed", `"512MiB"`},
}

// TestBadConfigs loads every fixture in testdata/bad and checks that the
// error is one line, starts with the file's path, wraps ErrConfig and
// says what the table expects.
func TestBadConfigs(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, path := range files {
		name := filepath.Base(path)
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			want, ok := badCases[name]
			if !ok {
				t.Fatalf("fixture %s has no entry in badCases", name)
			}
			c, err := Load(path)
			if err == nil {
				t.Fatalf("Load(%s) = %+v, want an error", path, c)
			}
			checkErrorShape(t, path, err)
			for _, w := range want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\n  does not contain %q", err, w)
				}
			}
		})
	}
	var missing []string
	for name := range badCases {
		if !seen[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("badCases lists fixtures that do not exist: %v", missing)
	}
}

// checkErrorShape asserts the contract of every config error.
func checkErrorShape(t *testing.T, path string, err error) {
	t.Helper()
	msg := err.Error()
	if strings.ContainsAny(msg, "\r\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	if !strings.HasPrefix(msg, path+": ") {
		t.Errorf("error %q does not start with %q", msg, path+": ")
	}
	if !errors.Is(err, ErrConfig) {
		t.Errorf("error %q does not wrap ErrConfig", msg)
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.toml")
	_, err := Load(path)
	if err == nil {
		t.Fatal("Load of a missing file succeeded")
	}
	checkErrorShape(t, path, err)
	if !strings.Contains(err.Error(), "cannot read config") {
		t.Errorf("error %q does not say the file cannot be read", err)
	}
}
