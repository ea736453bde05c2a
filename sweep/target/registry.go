package target

import (
	"sync"
	"syscall"
	"time"
)

// registry holds every server started by this package and not yet stopped.
var registry struct {
	mu      sync.Mutex
	servers map[*Server]struct{}
}

// register runs start (which forks) and records srv, under the registry
// lock, so KillAll never misses a process that is being started.
func register(srv *Server, start func() error) error {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if err := start(); err != nil {
		return err
	}
	if registry.servers == nil {
		registry.servers = map[*Server]struct{}{}
	}
	registry.servers[srv] = struct{}{}
	return nil
}

func unregister(srv *Server) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	delete(registry.servers, srv)
}

// KillAll sends SIGKILL to the process group of every server started by
// this package and not stopped yet, and waits (at most 5 s in all) for
// them to be reaped. The driver calls it on interrupt and on exit.
func KillAll() {
	registry.mu.Lock()
	var all []*Server
	for srv := range registry.servers {
		all = append(all, srv)
		_ = signalGroup(srv.pgid, syscall.SIGKILL)
	}
	registry.mu.Unlock()
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	for _, srv := range all {
		select {
		case <-srv.done:
		case <-deadline.C:
			return
		}
		_ = srv.Stop(0) // already dead: closes pipes, unregisters
	}
}
