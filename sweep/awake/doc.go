// Package awake keeps the pinned CPUs of a sweep from going idle, so that
// the time a request waits is not the time a halted CPU takes to wake.
//
// At low concurrency a server and its load generator each sleep for part
// of every request. A sleeping CPU halts; on a virtual machine a halted
// virtual CPU leaves the hypervisor, and waking it means waiting until the
// hypervisor schedules it again. On this project's VM that wait showed as
// 13–42% of both CPUs stolen during c=1 windows (and as swings of the
// absolute CPU per request and RPS between runs); with a spinner on each
// pinned CPU the steal went to 0 and c=1 ran at a steady RPS
// (BENCHMARKS.md, 2026-12-03).
//
// A spinner is a child process (the sweep binary's hidden "awake"
// subcommand) pinned to one CPU at SCHED_IDLE, the lowest scheduling
// class: it runs only when nothing else wants the CPU and is preempted as
// soon as anything does, so the CPU never halts and the server's and the
// generator's own CPU clocks do not see it. Its CPU time is what the CPU
// would have spent idle; Spinners.CPU reads it so that the driver can
// count it as idle time.
package awake
