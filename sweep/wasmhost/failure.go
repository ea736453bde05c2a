package wasmhost

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/sweep-dev/sweep/sweep/setting"
)

// Reason classifies a failed request. The names are the keys of the
// "errors" object of GET /__sweep/stats.
type Reason int

const (
	// PoolCoreInstances: total_core_instances exhausted.
	PoolCoreInstances Reason = iota
	// PoolMemories: total_memories exhausted ("memory stripe").
	PoolMemories
	// PoolTables: total_tables exhausted.
	PoolTables
	// PoolComponentInstances: total_component_instances exhausted.
	PoolComponentInstances
	// PoolOther: another pool limit (stacks, GC heaps).
	PoolOther
	// Trap: the plugin trapped or a WASI command exited non-zero.
	Trap
	// Timeout: the request ran past its deadline.
	Timeout
	// Other: any other failure (bad ABI use, body too large, host panic).
	Other
	// HTTPGuest: a wasi:http guest broke the protocol: it never set the
	// response, set an error code, left its body unfinished or sent a body
	// other than its content-length says.
	HTTPGuest
	numReasons
)

var reasonNames = [numReasons]string{
	"pool_core_instances", "pool_memories", "pool_tables", "pool_component_instances", "pool_other", "trap", "timeout", "other", "http_guest",
}

// String returns the reason's stats key, e.g. "pool_memories".
func (r Reason) String() string {
	if r >= 0 && r < numReasons {
		return reasonNames[r]
	}
	return "unknown"
}

// IsPool reports whether r is a pool-exhaustion reason.
func (r Reason) IsPool() bool { return r <= PoolOther }

// limit names the pooling option behind a pool reason ("" if unknown).
func (r Reason) limit() string {
	switch r {
	case PoolCoreInstances:
		return "total_core_instances"
	case PoolMemories:
		return "total_memories"
	case PoolTables:
		return "total_tables"
	case PoolComponentInstances:
		return "total_component_instances"
	}
	return ""
}

// status is the HTTP status answered for r.
func (r Reason) status() int {
	switch {
	case r.IsPool():
		return http.StatusServiceUnavailable
	case r == Timeout:
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}

// Error is a failed request: why, and a one-line message without Rust
// backtraces.
type Error struct {
	Reason Reason
	Msg    string
	// Detail is the cleaned multi-line message (with the wasm backtrace of
	// a trap), for logs.
	Detail string
	// status overrides the HTTP status of Reason when non-zero.
	status int
}

func (e *Error) Error() string { return e.Msg }

// httpStatus is the HTTP status answered for e.
func (e *Error) httpStatus() int {
	if e.status != 0 {
		return e.status
	}
	return e.Reason.status()
}

// exhaustionPrefix starts Wasmtime's pool-exhaustion messages, e.g.
// "maximum concurrent limit of 2 for core instances reached" or
// "maximum concurrent limit of 1 for memory stripe 0 reached".
const exhaustionPrefix = "maximum concurrent limit of "

// componentInterrupt is how a component call's error names an epoch
// interruption (the request deadline).
const componentInterrupt = "wasm trap: interrupt"

// classify turns an error from instantiation or a call into an *Error.
// timeout is the request deadline, for the message of an interrupt.
func classify(err error, h *Host) *Error {
	var he *Error
	if errors.As(err, &he) {
		return he
	}
	text := cleanMessage(err.Error())
	short := causeLine(text)
	var we *wasmError
	if errors.As(err, &we) && we.trap {
		if we.code == trapInterrupt {
			return h.timeoutError()
		}
		return &Error{Reason: Trap, Msg: "plugin trapped: " + short, Detail: text}
	}
	if we != nil && !we.trap {
		// The component C API returns traps as errors, their kind only
		// in the message text.
		switch {
		case strings.Contains(text, componentInterrupt):
			return h.timeoutError()
		case strings.Contains(text, "wasm trap: "):
			return &Error{Reason: Trap, Msg: "plugin trapped: " + short, Detail: text}
		}
	}
	if i := strings.Index(text, exhaustionPrefix); i >= 0 {
		msg := firstLine(text[i:])
		r := PoolOther
		switch rest := msg[len(exhaustionPrefix):]; {
		case strings.Contains(rest, "component instances"):
			r = PoolComponentInstances
		case strings.Contains(rest, "core instances"):
			r = PoolCoreInstances
		case strings.Contains(rest, "memor"):
			r = PoolMemories
		case strings.Contains(rest, "tables"):
			r = PoolTables
		}
		return &Error{Reason: r, Msg: "pool exhausted: " + h.limitLabel(r) + msg, Detail: text}
	}
	return &Error{Reason: Other, Msg: short, Detail: text}
}

// limitLabel renders "total_memories (64) — " for a pool reason, with the
// configured value or Wasmtime's default; "" for unknown limits.
func (h *Host) limitLabel(r Reason) string {
	name := r.limit()
	if name == "" {
		return ""
	}
	return fmt.Sprintf("%s (%s) — ", name, h.settingValue(name))
}

// settingValue is the value of option name in effect: as set, or
// Wasmtime's documented default.
func (h *Host) settingValue(name string) string {
	if v, ok := h.settings.Get(name); ok {
		return v
	}
	o, _ := setting.Lookup(name)
	return o.Default
}

func (h *Host) timeoutError() *Error {
	msg := fmt.Sprintf("plugin timed out after %s", h.timeout)
	return &Error{Reason: Timeout, Msg: msg, Detail: msg}
}

// cleanMessage drops the Rust backtrace that Wasmtime appends to error
// messages (when RUST_BACKTRACE or RUST_LIB_BACKTRACE is set) and trailing
// blank lines.
func cleanMessage(s string) string {
	if i := strings.Index(s, "Stack backtrace:"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, " \n")
}

// causeLine reduces a cleaned multi-line message to one line: its first
// line and the "Caused by:" chain joined with ": ", e.g. "module memory
// does not fit ...: memory has a minimum byte size of ...". The generic
// first line of a trap ("error while executing at wasm backtrace:") and
// its wasm frames are left out, leaving e.g. "wasm trap: interrupt".
func causeLine(s string) string {
	head := firstLine(s)
	if strings.HasPrefix(head, "error while executing at wasm backtrace") {
		head = ""
	}
	i := strings.Index(s, "Caused by:")
	if i < 0 {
		return firstLine(s)
	}
	var parts []string
	if head != "" {
		parts = append(parts, head)
	}
	for _, l := range strings.Split(s[i+len("Caused by:"):], "\n") {
		l = strings.TrimSpace(l)
		// Numbered chains look like "0: msg".
		if j := strings.Index(l, ": "); j > 0 && strings.Trim(l[:j], "0123456789") == "" {
			l = l[j+2:]
		}
		if l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, ": ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return strings.TrimSpace(s)
}
