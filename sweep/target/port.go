package target

import (
	"fmt"
	"net"
)

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago: it
// listens on port 0 and closes the listener. Another process can take the
// port before the server binds it, so callers retry Start (with a fresh
// port) when the server fails to bind.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("target: finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
