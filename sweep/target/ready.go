package target

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// readyLine is the built-in host's announcement on stdout:
// {"event":"ready","addr":"127.0.0.1:PORT","pid":N}.
type readyLine struct {
	Event string `json:"event"`
	Addr  string `json:"addr"`
	PID   int    `json:"pid"`
}

// parseReadyLine reports whether l is a ready event and, if so, whether it
// is well formed. Other lines (logs, other events) are not ready events.
func parseReadyLine(l string) (readyLine, bool, error) {
	var r readyLine
	l = strings.TrimSpace(l)
	if !strings.HasPrefix(l, "{") || json.Unmarshal([]byte(l), &r) != nil || r.Event != "ready" {
		return r, false, nil
	}
	host, port, err := net.SplitHostPort(r.Addr)
	if err != nil || host == "" || port == "" || port == "0" {
		return r, true, fmt.Errorf("ready line %s: addr %q is not host:port", l, r.Addr)
	}
	if r.PID < 0 {
		return r, true, fmt.Errorf("ready line %s: bad pid %d", l, r.PID)
	}
	return r, true, nil
}

// pollURL GETs u every 50ms until any HTTP response arrives, then sends
// addr on ready. It stops when ctx ends.
func pollURL(ctx context.Context, u string, ready chan<- readyLine, addr string) {
	client := &http.Client{
		Transport: &http.Transport{DisableKeepAlives: true}, // no proxy; leave no idle connection behind
		Timeout:   time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	defer client.CloseIdleConnections()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return // validated before; ctx errors end polling
		}
		if resp, err := client.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			ready <- readyLine{Event: "ready", Addr: addr}
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// processGroup reads the process group of pid from /proc/PID/stat
// (field 5, counted after the parenthesised command name).
func processGroup(pid int) (int, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	return strconv.Atoi(f[2])
}
