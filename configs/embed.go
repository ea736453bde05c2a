// Package configs holds the configs shipped with sweep. The *.toml files
// here are examples to run from the repository; Builtin and Command are
// the two that `sweep init` writes, embedded in the binary so that an
// installed sweep can start without the repository.
package configs

import _ "embed"

// Builtin is grid.toml, the default sweep on the built-in Wasmtime host.
//
//go:embed grid.toml
var Builtin string

// Command is init/command.toml, a starting config for a command target
// (the user's own server).
//
//go:embed init/command.toml
var Command string
