// Package probe reads the server-side figures of a measurement window on
// Linux: a process's CPU time (all threads, exited ones included), resident
// set size, minor page faults and context switches, plus the driver's own
// CPU time. A window's figures are the Diff of a Sample taken before and one
// taken after it.
//
// CPU time comes from the kernel's per-process CPU clock read with
// clock_gettime (nanoseconds, source "clock"). When that clock cannot be
// read, the utime+stime ticks of /proc/PID/stat are used instead (source
// "proc_stat", 10 ms resolution).
package probe
