// Command noop is the HTTP half of the per-request floor in BENCHMARKS.md:
// a Go net/http server whose handler does nothing but send the response
// the built-in host sends for the benchmark's workload (status 200, the
// same Content-Type, Content-Length and body size), with the same
// http.Server settings as `sweep serve`. sweep measures its CPU per
// request as a command target (bench/host.toml).
//
//	noop -listen 127.0.0.1:PORT [-response-bytes N]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "loopback address to serve on")
	size := flag.Int("response-bytes", 0, "bytes of response body")
	flag.Parse()
	host, _, err := net.SplitHostPort(*listen)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(os.Stderr, "noop: -listen %q: want a loopback host:port\n", *listen)
		os.Exit(2)
	}
	if *size < 0 {
		fmt.Fprintf(os.Stderr, "noop: -response-bytes %d: want 0 or more\n", *size)
		os.Exit(2)
	}
	body := bytes.Repeat([]byte{'0'}, *size)
	// The header values the host sets (wasmhost.writeBody), built once.
	contentType := []string{"text/plain; charset=utf-8"}
	contentLength := []string{strconv.Itoa(len(body))}
	handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h["Content-Type"] = contentType
		h["Content-Length"] = contentLength
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	})
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "noop:", err)
		os.Exit(1)
	}
	// The settings of `sweep serve` (cmd/sweep/serve.go).
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
		<-sig
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "noop:", err)
		os.Exit(1)
	}
}
