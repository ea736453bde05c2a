package load

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestNewValidation(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		err  string // "" = accepted
	}{
		{"ipv4 loopback", Options{URL: "http://127.0.0.1:8080/x", Concurrency: 1}, ""},
		{"other 127/8", Options{URL: "http://127.0.0.2:8080/", Concurrency: 1}, ""},
		{"ipv6 loopback", Options{URL: "http://[::1]:80/", Concurrency: 1}, ""},
		{"localhost", Options{URL: "http://LocalHost:1/", Concurrency: 10000}, ""},
		{"remote allowed", Options{URL: "http://10.0.0.1/", Concurrency: 1, AllowRemote: true}, ""},
		{"private ip", Options{URL: "http://10.0.0.1/", Concurrency: 1}, `host "10.0.0.1" is not a loopback address`},
		{"hostname", Options{URL: "http://example.com/", Concurrency: 1}, `host "example.com" is not a loopback address`},
		{"ipv6 remote", Options{URL: "http://[2001:db8::1]/", Concurrency: 1}, "not a loopback address"},
		{"unspecified", Options{URL: "http://0.0.0.0:80/", Concurrency: 1}, "not a loopback address"},
		{"https", Options{URL: "https://127.0.0.1/", Concurrency: 1}, `scheme "https" not supported`},
		{"no host", Options{URL: "http:///x", Concurrency: 1}, "has no host"},
		{"unparsable", Options{URL: "http://127.0.0.1:badport/", Concurrency: 1}, "invalid port"},
		{"zero concurrency", Options{URL: "http://127.0.0.1/", Concurrency: 0}, "concurrency 0 out of range 1..10000"},
		{"huge concurrency", Options{URL: "http://127.0.0.1/", Concurrency: 10001}, "concurrency 10001 out of range 1..10000"},
		{"bad method", Options{URL: "http://127.0.0.1/", Method: "GE T", Concurrency: 1}, `method "GE T"`},
		{"negative timeout", Options{URL: "http://127.0.0.1/", Concurrency: 1, Timeout: -time.Second}, "timeout -1s is negative"},
		{"negative max", Options{URL: "http://127.0.0.1/", Concurrency: 1, MaxRequests: -1}, "max requests -1 is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := New(tt.o)
			if tt.err == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				g.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err = %v, want containing %q", err, tt.err)
			}
			if strings.Contains(tt.err, "loopback") && !errors.Is(err, ErrNotLoopback) {
				t.Errorf("err %v does not wrap ErrNotLoopback", err)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	g, err := New(Options{URL: "http://127.0.0.1/", Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if o := g.options(); o.Method != "GET" || o.Timeout != DefaultTimeout {
		t.Errorf("defaults: method %q timeout %v", o.Method, o.Timeout)
	}
	if tr := g.transport; cap(tr.tokens) != 3 || cap(tr.idle) != 3 || tr.addr != "127.0.0.1:80" || tr.timeout != DefaultTimeout {
		t.Errorf("transport: max conns %d, idle %d, addr %q, timeout %v; want 3, 3, 127.0.0.1:80, %v",
			cap(tr.tokens), cap(tr.idle), tr.addr, tr.timeout, DefaultTimeout)
	}
}

// TestDialGuard: the dial-time check refuses resolved non-loopback
// addresses (a "localhost" that resolves elsewhere).
func TestDialGuard(t *testing.T) {
	for addr, ok := range map[string]bool{
		"127.0.0.1:80": true, "[::1]:80": true, "10.0.0.1:80": false, "[2001:db8::1]:443": false, "junk": false,
	} {
		err := loopbackOnly("tcp", addr, nil)
		if (err == nil) != ok {
			t.Errorf("loopbackOnly(%q) = %v, want ok=%t", addr, err, ok)
		}
	}
}
