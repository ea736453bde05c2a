// Package version says which build this binary is: sweep's own module
// version and commit, and the Wasmtime it embeds. summary.json records
// both, so that a cross-run check can tell when two runs were made by
// different builds, and `sweep version` prints them.
package version

import (
	"runtime/debug"
	"strings"
)

// wasmtimeModule is the module path prefix of wasmtime-go.
const wasmtimeModule = "github.com/bytecodealliance/wasmtime-go"

// revision is the commit the Makefile passes with -ldflags -X (short,
// "+dirty" when the tree had uncommitted changes), for the builds Go does
// not stamp with it: Go reads VCS information only where .git is a
// directory, not in a git worktree, whose .git is a file.
var revision string

// Sweep is this binary's module version and, when it was built from a Git
// checkout, the commit ("(devel) 34a1c78", "+dirty" when the tree had
// uncommitted changes). "" when the binary carries no build information.
func Sweep() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return sweep(bi, revision)
}

// sweep is Sweep for the build information bi; rev is the commit to name
// when bi has none (revision).
func sweep(bi *debug.BuildInfo, rev string) string {
	v := bi.Main.Version
	var vcs, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			vcs = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(vcs) > 7 {
		vcs = vcs[:7]
	}
	if vcs != "" {
		rev = vcs + dirty
	}
	if rev != "" {
		v = strings.TrimSpace(v + " " + rev)
	}
	return v
}

// Wasmtime is the wasmtime-go module version this binary was built with
// (its major.minor.patch follow Wasmtime's), "" when it has none.
func Wasmtime() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return wasmtime(bi)
}

// wasmtime is Wasmtime for the build information bi.
func wasmtime(bi *debug.BuildInfo) string {
	for _, m := range bi.Deps {
		if strings.HasPrefix(m.Path, wasmtimeModule) {
			return strings.TrimPrefix(m.Version, "v")
		}
	}
	return ""
}

// Go is the Go toolchain this binary was built with.
func Go() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return bi.GoVersion
}
