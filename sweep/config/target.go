package config

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/sweep-dev/sweep/sweep"
)

// BuiltinPlugin is the name of the built-in workload module.
const BuiltinPlugin = "workload"

// DefaultURL is the default base URL template of a command target.
const DefaultURL = "http://127.0.0.1:{{port}}/"

// wasmMagic starts every binary wasm module.
var wasmMagic = []byte("\x00asm")

// identifier is the rule for command-target axis and env names.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// commandOnly and builtinOnly are the [target] keys that only make sense
// for one kind; setting them for the other is an error, not ignored.
var (
	commandOnly = []string{"command", "env", "url", "ready", "allow_remote"}
	builtinOnly = []string{"plugin", "gomaxprocs"}
)

// target reads [target]. Checks that need the axes (templates) or the
// file system (plugin, command) run later, in templates, plugin and
// command.
func (p *parser) target(t *table) {
	tg := &p.c.Target
	tg.Kind = choice(t, "kind", sweep.TargetBuiltin, sweep.TargetKinds)
	tg.ReadyTimeout = t.duration("ready_timeout", 15*time.Second)
	if p.err != nil {
		return
	}
	wrongKind := builtinOnly
	if tg.Kind == sweep.TargetBuiltin {
		wrongKind = commandOnly
	}
	for _, k := range wrongKind {
		if t.has(k) {
			p.failf("%s: only allowed with target.kind = %q (this target is %q)", t.key(k), otherKind(tg.Kind), tg.Kind)
			return
		}
	}
	if tg.Kind == sweep.TargetBuiltin {
		tg.Plugin = t.str("plugin", BuiltinPlugin)
		tg.GOMAXPROCS = int(t.integer("gomaxprocs", 0, 0, 1024))
		return
	}
	if !t.has("command") {
		p.failf(`target.command: required with target.kind = "command"; want the server's argv, e.g. ["./myserver", "--port={{port}}"]`)
		return
	}
	tg.Command = t.stringList("command")
	if p.err == nil && len(tg.Command) == 0 {
		p.failf(`target.command = []: want at least the program, e.g. ["./myserver", "--port={{port}}"]`)
		return
	}
	tg.Env = t.stringMap("env", identifier.MatchString, "an environment variable name ([A-Za-z_][A-Za-z0-9_]*)")
	tg.URL = t.str("url", DefaultURL)
	tg.Ready = t.str("ready", tg.URL)
	tg.AllowRemote = t.boolean("allow_remote", false)
}

func otherKind(k sweep.TargetKind) sweep.TargetKind {
	if k == sweep.TargetBuiltin {
		return sweep.TargetCommand
	}
	return sweep.TargetBuiltin
}

// plugin resolves and checks a builtin target's .wasm plugin.
func (p *parser) plugin() {
	tg := &p.c.Target
	if p.err != nil || tg.Kind != sweep.TargetBuiltin || tg.Plugin == BuiltinPlugin {
		return
	}
	name := tg.Plugin
	if _, ok := p.c.Fixed["component"]; ok {
		p.failf(`workload.component: only for target.plugin = %q (it serves the builtin workload's component twin); target.plugin = %q is a file, served as what its header says`, BuiltinPlugin, name)
		return
	}
	for _, ax := range p.c.Axes {
		if ax.Name == "component" {
			p.failf(`grid.component: only for target.plugin = %q (it serves the builtin workload's component twin); target.plugin = %q is a file, served as what its header says`, BuiltinPlugin, name)
			return
		}
	}
	if !strings.HasSuffix(name, ".wasm") && !strings.ContainsRune(name, '/') {
		p.failf(`target.plugin = %q: unknown builtin plugin; want %q or the path of a .wasm file`, name, BuiltinPlugin)
		return
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.dir, path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		p.fail(err, "target.plugin = %q: %v", name, err)
		return
	}
	fi, err := os.Stat(abs)
	if err != nil {
		p.fail(err, "target.plugin = %q: no such file %s (relative paths are relative to the config file's directory)", name, abs)
		return
	}
	if !fi.Mode().IsRegular() {
		p.failf("target.plugin = %q: %s is not a regular file; want a .wasm module or component", name, abs)
		return
	}
	f, err := os.Open(abs)
	if err != nil {
		p.fail(err, "target.plugin = %q: %v", name, err)
		return
	}
	defer f.Close()
	head := make([]byte, len(wasmMagic))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, wasmMagic) {
		p.failf(`target.plugin = %q: %s is not a binary wasm module or component (it does not start with "\0asm")`, name, abs)
		return
	}
	tg.Plugin = abs
}

// command finds a command target's program, like exec.LookPath, but with
// paths containing a slash taken relative to the config's directory.
// argv[0] may be a template of grid axes (e.g. "{{build}}", to put two
// builds of a server side by side in one run): then every point's
// rendered program must exist, and Target.Programs maps each rendered
// name to the executable found.
func (p *parser) command() {
	tg := &p.c.Target
	if p.err != nil || tg.Kind != sweep.TargetCommand {
		return
	}
	prog := tg.Command[0]
	if !strings.Contains(prog, "{{") {
		tg.Command[0] = p.lookProgram("target.command[0]", prog, prog)
		return
	}
	tg.Programs = map[string]string{}
	for _, pt := range p.c.Points {
		name, err := Render(prog, p.c.Vars(pt, 0))
		if err != nil {
			p.fail(err, "target.command[0] = %q: %v", prog, err)
			return
		}
		if _, done := tg.Programs[name]; done {
			continue
		}
		found := p.lookProgram("target.command[0]", prog, name)
		if p.err != nil {
			return
		}
		tg.Programs[name] = found
	}
}

// lookProgram resolves one program name (tmpl as written, name after
// substitution) and returns the absolute path of the executable.
func (p *parser) lookProgram(key, tmpl, name string) string {
	look := name
	shown := fmt.Sprintf("%s = %q", key, tmpl)
	if tmpl != name {
		shown += fmt.Sprintf(" (%q after substitution)", name)
	}
	if strings.ContainsRune(name, '/') && !filepath.IsAbs(name) {
		// Absolute, so that LookPath checks this file and never searches PATH.
		abs, err := filepath.Abs(filepath.Join(p.dir, name))
		if err != nil {
			p.fail(err, "%s: %v", shown, err)
			return name
		}
		look = abs
	}
	found, err := exec.LookPath(look)
	if err != nil {
		where := "on PATH"
		if strings.ContainsRune(name, '/') {
			where = "at " + look + " (relative to the config file's directory)"
		}
		p.fail(err, "%s: no executable found %s", shown, where)
		return name
	}
	if strings.ContainsRune(found, '/') {
		if abs, err := filepath.Abs(found); err == nil {
			found = abs
		}
	}
	return found
}

// checkURL checks one rendered URL of a command target.
func (p *parser) checkURL(key, tmpl, rendered string, base bool) {
	u, err := url.Parse(rendered)
	if err != nil {
		p.fail(err, "%s = %q: not a URL (%q after substitution)", key, tmpl, rendered)
		return
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		p.failf("%s = %q: scheme %q; want http:// or https://", key, tmpl, u.Scheme)
		return
	}
	if u.Host == "" || u.User != nil {
		p.failf("%s = %q: want scheme://host:port/ (%q after substitution)", key, tmpl, rendered)
		return
	}
	if base && ((u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "") {
		p.failf("%s = %q: the base URL may not have a path or query; put the request path in load.path", key, tmpl)
		return
	}
	if !p.c.Target.AllowRemote && !isLoopback(u.Hostname()) {
		p.failf("%s = %q: host %q is not loopback (127.0.0.0/8, ::1, localhost); set target.allow_remote = true to load a remote server", key, tmpl, u.Hostname())
	}
}

// isLoopback reports whether host is a loopback address or localhost.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
