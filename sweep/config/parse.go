package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// parser carries the state of one Parse: the file's path and directory,
// the first error, and the config being built.
type parser struct {
	path string
	dir  string
	err  error
	c    *Config
	keys []toml.Key // every key in file order (MetaData.Keys)
}

// Load reads and parses the config file at path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &configError{path: path, msg: oneLine(fmt.Sprintf("cannot read config: %v", err)), cause: err}
	}
	return Parse(path, data)
}

// Parse parses and validates data, the contents of the config file at
// path. Relative paths in the config (a .wasm plugin, a command's argv[0])
// are resolved against path's directory; the checks that look at this
// machine (plugin file, command on PATH, online CPUs) run here too, so a
// Config that Parse returns is ready to run.
func Parse(path string, data []byte) (*Config, error) {
	p := &parser{path: path, dir: filepath.Dir(path), c: &Config{Path: path, Raw: data}}
	var tree map[string]any
	md, err := toml.Decode(string(data), &tree)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			p.fail(err, "line %d: malformed TOML: %s", pe.Position.Line, pe.Message)
		} else {
			p.fail(err, "malformed TOML: %s", strings.TrimPrefix(err.Error(), "toml: "))
		}
		return nil, p.err
	}
	p.keys = md.Keys()
	p.unknownKeys(p.keys)
	root := &table{p: p, m: tree}
	p.name(root)
	p.target(root.sub("target"))
	p.fixed(root)
	p.grid(root.sub("grid"))
	p.baseline(root.sub("baseline"))
	p.load(root.sub("load"))
	p.run(root.sub("run"))
	p.analysis(root.sub("analysis"))
	p.templates()
	p.plugin()
	p.command()
	if p.err != nil {
		return nil, p.err
	}
	return p.c, nil
}

// validName is the run-name rule: it becomes part of a directory name.
var validName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$`)

// name reads the top-level name, defaulting to the file's base name.
func (p *parser) name(root *table) {
	def := strings.TrimSuffix(filepath.Base(p.path), filepath.Ext(p.path))
	n := root.str("name", def)
	if p.err != nil {
		return
	}
	if !validName.MatchString(n) {
		if !root.has("name") {
			p.failf(`the file name gives the run name %q, which is not allowed; set name = "..." (letters, digits, '.', '_', '-', at most 64, not starting with '.' or '-')`, n)
			return
		}
		p.failf(`name = %q: want letters, digits, '.', '_' or '-' (at most 64, not starting with '.' or '-')`, n)
		return
	}
	p.c.Name = n
}

// keysOf returns the keys of t in the order they appear in the file (a
// decoded table is a map and has no order); the order of [grid] is the
// order of the axes.
func (p *parser) keysOf(t *table) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range p.keys {
		if len(k) < 1 {
			continue
		}
		name := k[len(k)-1]
		if strings.Join(k[:len(k)-1], ".") != t.name || seen[name] {
			continue
		}
		if _, ok := t.m[name]; ok {
			seen[name] = true
			out = append(out, name)
		}
	}
	for _, name := range sortedKeys(t.m) { // keys whose path had quoted dots
		if !seen[name] {
			out = append(out, name)
		}
	}
	return out
}
