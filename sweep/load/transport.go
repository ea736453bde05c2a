package load

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"time"
)

// newTransport is the connection pool of a Generator: HTTP/1.1 keep-alive,
// at most c connections to the target (MaxConnsPerHost, so at most c
// in flight), c idle ones kept between windows, no proxy, no transparent
// gzip (the client would pay for decompression; a request can still ask
// for it with an Accept-Encoding header).
func newTransport(c int, allowRemote bool) *http.Transport {
	d := &net.Dialer{KeepAlive: 30 * time.Second, Timeout: 10 * time.Second}
	if !allowRemote {
		d.Control = loopbackOnly
	}
	return &http.Transport{
		DialContext:         d.DialContext,
		MaxConnsPerHost:     c,
		MaxIdleConnsPerHost: c,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
		TLSNextProto:        map[string]func(string, *tls.Conn) http.RoundTripper{},
	}
}

// windowTransport gives every request of one window a context that ends
// at the request's timeout or when the window's context is cancelled,
// whichever is first, so an interrupted window does not wait for slow
// requests. (vegeta builds requests without a context.) The request's
// context is released when its body is closed.
type windowTransport struct {
	base    http.RoundTripper
	ctx     context.Context
	timeout time.Duration
}

func (t *windowTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(t.ctx, t.timeout)
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// cancelBody releases the request context once the body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
