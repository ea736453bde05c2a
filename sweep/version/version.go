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

// Sweep is this binary's module version and, when it was built from a Git
// checkout, the commit ("(devel) 34a1c78", "+dirty" when the tree had
// uncommitted changes). "" when the binary carries no build information.
func Sweep() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return sweep(bi)
}

// sweep is Sweep for the build information bi.
func sweep(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	if rev != "" {
		v = strings.TrimSpace(v + " " + rev + dirty)
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
