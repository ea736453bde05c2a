package wasmhost

import (
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestCauseLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"maximum concurrent limit of 2 for core instances reached\n\nStack backtrace:\n   0: <unknown>\n   1: <unknown>",
			"maximum concurrent limit of 2 for core instances reached"},
		{"error while executing at wasm backtrace:\n    0:     0x28 - <unknown>!<wasm function 0>\n\nCaused by:\n    wasm trap: interrupt\n\nStack backtrace:\n   0: <unknown>",
			"wasm trap: interrupt"},
		{"module memory does not fit in pooling allocator requirements\n\nCaused by:\n    0: memory index 0 is unsupported\n    1: memory has a minimum byte size of 33554432",
			"module memory does not fit in pooling allocator requirements: memory index 0 is unsupported: memory has a minimum byte size of 33554432"},
		{"plain", "plain"},
	}
	for _, tt := range tests {
		if got := causeLine(cleanMessage(tt.in)); got != tt.want {
			t.Errorf("causeLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRateLog(t *testing.T) {
	var buf lockedBuffer
	l := &rateLog{logger: slog.New(slog.NewTextHandler(&buf, nil)), interval: time.Hour}
	e := &Error{Reason: PoolMemories, Msg: "pool exhausted: total_memories (64) — maximum concurrent limit of 64 for memory stripe 0 reached"}
	trap := &Error{Reason: Trap, Msg: "plugin trapped: wasm trap: unreachable", Detail: "frames"}
	for i := 0; i < 1000; i++ {
		l.failure(e)
	}
	l.failure(trap)
	l.flush(time.Second)
	l.flush(time.Second) // nothing pending: no line
	l.failure(e)         // within the interval of the last failure: counted, not logged
	l.flush(time.Second)
	// After a quiet interval the next failure is logged at once again.
	l.reasons[PoolMemories].lastSeen.Add(-int64(2 * time.Hour))
	l.failure(e)
	l.flush(time.Second)
	got := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{
		`level=WARN msg="pool exhausted" reason=pool_memories error="pool exhausted: total_memories (64) — maximum concurrent limit of 64 for memory stripe 0 reached"`,
		`level=WARN msg="plugin trapped" reason=trap error="plugin trapped: wasm trap: unreachable" detail=frames`,
		`level=WARN msg="pool exhausted 999 times in the last 1s: total_memories (64) — maximum concurrent limit of 64 for memory stripe 0 reached" reason=pool_memories count=999`,
		`level=WARN msg="pool exhausted 1 times in the last 1s: total_memories (64) — maximum concurrent limit of 64 for memory stripe 0 reached" reason=pool_memories count=1`,
		`level=WARN msg="pool exhausted" reason=pool_memories error="pool exhausted: total_memories (64) — maximum concurrent limit of 64 for memory stripe 0 reached"`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(got), len(want), buf.String())
	}
	for i := range want {
		// Drop the time= attribute.
		line := got[i][strings.Index(got[i], " ")+1:]
		if line != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, line, want[i])
		}
	}
}
