package load

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Limits of Options.Concurrency.
const (
	MinConcurrency = 1
	MaxConcurrency = 10000
)

// DefaultTimeout bounds a request (headers and body) when Options.Timeout
// is zero. It is vegeta's default.
const DefaultTimeout = 30 * time.Second

// ErrNotLoopback is wrapped when load would leave this machine.
var ErrNotLoopback = errors.New("not a loopback address")

// Options configure a Generator.
type Options struct {
	URL         string      // http://host:port/path; host must be loopback unless AllowRemote
	Method      string      // "" means GET
	Body        []byte      // request body, sent with every request
	Header      http.Header // extra request headers (a "Host" header sets the Host)
	Concurrency int         // closed-loop workers = max in-flight requests = max connections
	// Timeout bounds one request from sending it to the end of reading the
	// response body; 0 means DefaultTimeout. A request that runs out of
	// time counts as a "timeout" transport error.
	Timeout     time.Duration
	AllowRemote bool // permit non-loopback hosts
	// MaxRequests, when > 0, stops a window after that many requests have
	// been started even if its duration has not passed.
	MaxRequests int64
}

// validate checks o and fills defaults into a copy.
func (o Options) validate() (Options, *url.URL, error) {
	if o.Method == "" {
		o.Method = http.MethodGet
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Concurrency < MinConcurrency || o.Concurrency > MaxConcurrency {
		return o, nil, fmt.Errorf("load: concurrency %d out of range %d..%d", o.Concurrency, MinConcurrency, MaxConcurrency)
	}
	if o.Timeout < 0 {
		return o, nil, fmt.Errorf("load: timeout %v is negative", o.Timeout)
	}
	if o.MaxRequests < 0 {
		return o, nil, fmt.Errorf("load: max requests %d is negative", o.MaxRequests)
	}
	u, err := url.Parse(o.URL)
	if err != nil {
		return o, nil, fmt.Errorf("load: URL %q: %w", o.URL, err)
	}
	if u.Scheme != "http" {
		return o, nil, fmt.Errorf("load: URL %q: scheme %q not supported, want http", o.URL, u.Scheme)
	}
	if u.Hostname() == "" {
		return o, nil, fmt.Errorf("load: URL %q has no host", o.URL)
	}
	if !o.AllowRemote && !loopbackHost(u.Hostname()) {
		return o, nil, fmt.Errorf("load: URL %q: host %q is %w (127.0.0.0/8, ::1 or localhost); load may only go to this machine unless remote targets are allowed",
			o.URL, u.Hostname(), ErrNotLoopback)
	}
	if _, err := http.NewRequest(o.Method, o.URL, nil); err != nil {
		return o, nil, fmt.Errorf("load: method %q, URL %q: %w", o.Method, o.URL, err)
	}
	return o, u, nil
}

// loopbackHost accepts "localhost" and loopback IP literals.
func loopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// loopbackOnly is a net.Dialer Control hook: it refuses to connect to an
// address that is not loopback (e.g. "localhost" resolved elsewhere).
func loopbackOnly(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("load: dialing %q: %w", address, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("load: dialing %s %s: %w", network, address, ErrNotLoopback)
	}
	return nil
}
