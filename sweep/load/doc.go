// Package load drives closed-loop HTTP load with vegeta as a library.
//
// A Generator belongs to one (server, concurrency) pair. Each Run is one
// measurement window: C workers, each with at most one request in flight,
// issue requests back to back (vegeta Rate{Freq: 0} with Workers(C) and
// MaxWorkers(C)) over at most C keep-alive connections, for a bounded
// duration. Connections persist across the windows of a Generator, so
// a window does not pay for connection setup once warmup has run.
//
// Load goes only to loopback addresses (127.0.0.0/8, ::1, localhost)
// unless Options.AllowRemote is set; the check is made on the URL and
// again on every dialled address.
package load
