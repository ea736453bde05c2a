package target

import (
	"net"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSpecValidation(t *testing.T) {
	tests := []struct {
		name string
		s    Spec
		err  string
		addr string
	}{
		{"empty argv", Spec{ReadyLine: true}, "empty command", ""},
		{"no readiness", Spec{Argv: []string{"x"}}, "exactly one readiness check", ""},
		{"both", Spec{Argv: []string{"x"}, ReadyLine: true, ReadyURL: "http://127.0.0.1:1/"}, "exactly one readiness check", ""},
		{"negative timeout", Spec{Argv: []string{"x"}, ReadyLine: true, ReadyTimeout: -time.Second}, "ready timeout -1s is negative", ""},
		{"tail", Spec{Argv: []string{"x"}, ReadyLine: true, TailLines: -1}, "tail lines -1 out of range", ""},
		{"url scheme", Spec{Argv: []string{"x"}, ReadyURL: "ftp://127.0.0.1/"}, "want http://host:port/path", ""},
		{"url port", Spec{Argv: []string{"x"}, ReadyURL: "http://127.0.0.1:8080/h"}, "", "127.0.0.1:8080"},
		{"url default port", Spec{Argv: []string{"x"}, ReadyURL: "http://localhost/"}, "", "localhost:80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, addr, err := tt.s.normalize()
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want containing %q", err, tt.err)
				}
				return
			}
			if err != nil || addr != tt.addr || s.ReadyTimeout != DefaultReadyTimeout || s.TailLines != DefaultTailLines {
				t.Errorf("got %q %v %d, %v", addr, s.ReadyTimeout, s.TailLines, err)
			}
		})
	}
}

func TestParseReadyLine(t *testing.T) {
	tests := []struct {
		line  string
		ready bool
		err   string
		addr  string
	}{
		{`{"event":"ready","addr":"127.0.0.1:8080","pid":42}`, true, "", "127.0.0.1:8080"},
		{`  {"event":"ready","addr":"[::1]:9"}`, true, "", "[::1]:9"},
		{`{"event":"listening","addr":"127.0.0.1:8080"}`, false, "", ""},
		{`starting on {"event":"ready"}`, false, "", ""},
		{`{"event":"ready","addr":"127.0.0.1"}`, true, "is not host:port", ""},
		{`{"event":"ready","addr":"127.0.0.1:0"}`, true, "is not host:port", ""},
		{`{"event":"ready","addr":"127.0.0.1:1","pid":-3}`, true, "bad pid", ""},
	}
	for _, tt := range tests {
		r, ready, err := parseReadyLine(tt.line)
		if ready != tt.ready || (tt.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.err)) || (ready && err == nil && r.Addr != tt.addr) {
			t.Errorf("parseReadyLine(%q) = %+v, %t, %v", tt.line, r, ready, err)
		}
	}
}

func TestFreePort(t *testing.T) {
	p, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
	if err != nil {
		t.Fatalf("port %d from FreePort not bindable: %v", p, err)
	}
	l.Close()
}
