//go:build !amd64

package awake

import "sync/atomic"

var spinSink atomic.Uint32

// spin busy-waits for a few microseconds (a loop of atomic loads the
// compiler cannot remove; this architecture gets no spin-wait hint).
func spin() {
	for range 4096 {
		spinSink.Load()
	}
}
