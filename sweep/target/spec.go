package target

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/sweep-dev/sweep/sweep/cpuset"
)

// Defaults of Spec.
const (
	DefaultReadyTimeout = 15 * time.Second
	DefaultTailLines    = 20
	maxTailLines        = 10000
)

// Errors wrapped by Start.
var (
	ErrNeverReady  = errors.New("target never became ready")
	ErrExitedEarly = errors.New("target exited before it was ready")
)

// Spec describes a server process.
type Spec struct {
	Argv []string // program and arguments; Argv[0] is looked up in PATH
	Env  []string // extra KEY=VALUE on top of os.Environ()
	Dir  string   // working directory; "" = the driver's

	// CPUs pins the process from birth (cpuset.StartPinned); empty = not
	// pinned. The affinity actually in force is read back once the server
	// is ready and recorded in Server.Pinned; a mismatch fails Start.
	CPUs cpuset.Set
	// Batch starts the process at SCHED_BATCH (cpuset.Start): the fair
	// scheduler without wake-up preemption, for it and all its threads.
	Batch bool

	// Readiness: exactly one of ReadyLine and ReadyURL.
	//
	// ReadyLine waits for a stdout line {"event":"ready","addr":"host:port",
	// "pid":N} (the built-in host). pid 0 or absent means the started
	// process itself; another pid must be a member of its process group
	// and becomes Server.PID.
	ReadyLine bool
	// ReadyURL is polled with GET until any HTTP response arrives,
	// whatever its status: the server is then accepting connections and
	// speaking HTTP, and a URL that legitimately answers 404 or, at
	// capacity, 503 must not hang the start. Server.Addr is its host:port.
	ReadyURL string

	ReadyTimeout time.Duration // bounded wait for readiness; 0 = DefaultReadyTimeout
	TailLines    int           // output lines kept per stream; 0 = DefaultTailLines
}

// normalize checks s and fills defaults into a copy. It returns the
// host:port of ReadyURL.
func (s Spec) normalize() (Spec, string, error) {
	if len(s.Argv) == 0 || s.Argv[0] == "" {
		return s, "", errors.New("target: empty command")
	}
	if s.ReadyLine == (s.ReadyURL != "") {
		return s, "", fmt.Errorf("target %q: want exactly one readiness check, a ready line or a ready URL", s.Argv[0])
	}
	if s.ReadyTimeout < 0 {
		return s, "", fmt.Errorf("target %q: ready timeout %v is negative", s.Argv[0], s.ReadyTimeout)
	}
	if s.ReadyTimeout == 0 {
		s.ReadyTimeout = DefaultReadyTimeout
	}
	if s.TailLines < 0 || s.TailLines > maxTailLines {
		return s, "", fmt.Errorf("target %q: tail lines %d out of range 0..%d", s.Argv[0], s.TailLines, maxTailLines)
	}
	if s.TailLines == 0 {
		s.TailLines = DefaultTailLines
	}
	if s.ReadyURL == "" {
		return s, "", nil
	}
	u, err := url.Parse(s.ReadyURL)
	if err != nil {
		return s, "", fmt.Errorf("target %q: ready URL: %w", s.Argv[0], err)
	}
	if u.Scheme != "http" || u.Hostname() == "" {
		return s, "", fmt.Errorf("target %q: ready URL %q: want http://host:port/path", s.Argv[0], s.ReadyURL)
	}
	port := u.Port()
	if port == "" {
		port = "80"
	}
	return s, net.JoinHostPort(u.Hostname(), port), nil
}
