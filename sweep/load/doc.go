// Package load drives closed-loop HTTP load with vegeta as a library.
//
// A Generator belongs to one (server, concurrency) pair. Each Run is one
// measurement window: C workers, each with at most one request in flight,
// issue requests back to back (vegeta Rate{Freq: 0} with Workers(C) and
// MaxWorkers(C)) over at most C keep-alive connections, for a bounded
// duration. Connections persist across the windows of a Generator, so
// a window does not pay for connection setup once warmup has run.
//
// vegeta's workers send through a small HTTP/1.1 keep-alive transport of
// this package rather than net/http.Transport: the worker that issues a
// request writes it and reads the response itself (net/http.Transport
// passes every request through two more goroutines and a timer), which
// on a one-CPU generator saves 10–30% of its CPU per request (see
// BENCHMARKS.md), and the generator must stay cheap next to the server it
// measures. Requests
// carry only the headers configured in Options.Header (vegeta's
// X-Vegeta-Seq and Go's default User-Agent are dropped), so the server
// parses what wrk would send.
//
// Load goes only to loopback addresses (127.0.0.0/8, ::1, localhost)
// unless Options.AllowRemote is set; the check is made on the URL and
// again on every dialled address.
package load
