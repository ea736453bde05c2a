// Package lint holds the project's own checks that go vet and
// staticcheck do not make. It has no code of its own: its tests are the
// checks, run by `make lint`.
package lint
