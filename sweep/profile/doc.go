// Package profile records CPU profiles of one server process with perf and
// groups their samples into families a reader can act on: page faults,
// madvise/munmap, mmap/mprotect, TLB shootdowns, the scheduler, the network
// stack, other kernel work, Wasmtime, libc's memset/memcpy, the Go runtime
// and other user code (see Classify for the rule).
//
// perf cannot sample a single process by PID on every machine (on some VMs
// "perf record -e cpu-clock -p PID" records nothing), so Record samples the
// server's CPUs system-wide and Convert keeps only the samples of the
// server's PID (all its threads). The steps are:
//
//	if err := profile.Check(ctx); err != nil { warn once; go on without profiles }
//	profile.Record(ctx, []int{0}, time.Second, "perf.data") // while the load runs
//	p, _ := profile.Convert(ctx, "perf.data", pid)          // pprof, for go tool pprof
//	fams := profile.Families(p)                             // one line per family
//
// Convert must run while the profiled binaries are still on disk: perf
// script reads their symbol tables, and frames of a deleted binary come out
// as "[unknown]".
package profile
