package wasmhost

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// rateLog logs request failures without flooding: the first failure of a
// reason after a quiet interval (no failure of that reason) is logged at
// once; further failures are counted and summarised by flush, once per
// interval ("pool exhausted 1234 times in the last 1s: total_memories (64)
// — ..."). A sustained storm thus logs one line per interval and reason.
type rateLog struct {
	logger   *slog.Logger
	interval time.Duration
	reasons  [numReasons]reasonLog
	stop     chan struct{}
	done     sync.WaitGroup
}

type reasonLog struct {
	lastSeen atomic.Int64 // unix nanoseconds of the last failure of this reason
	pending  atomic.Int64 // failures not yet logged
	last     atomic.Pointer[Error]
}

func newRateLog(logger *slog.Logger, interval time.Duration) *rateLog {
	l := &rateLog{logger: logger, interval: interval, stop: make(chan struct{})}
	l.done.Add(1)
	go l.run()
	return l
}

// failure records one failed request.
func (l *rateLog) failure(e *Error) {
	rl := &l.reasons[e.Reason]
	now := time.Now().UnixNano()
	last := rl.lastSeen.Load()
	if now-last >= int64(l.interval) && rl.lastSeen.CompareAndSwap(last, now) {
		l.logOne(e)
		return
	}
	rl.lastSeen.Store(now)
	rl.last.Store(e)
	rl.pending.Add(1)
}

func (l *rateLog) logOne(e *Error) {
	attrs := []any{"reason", e.Reason.String(), "error", e.Msg}
	if e.Detail != "" && !strings.Contains(e.Msg, e.Detail) {
		attrs = append(attrs, "detail", e.Detail)
	}
	l.logger.Warn(headline(e.Reason), attrs...)
}

// flush writes one summary line per reason with pending failures.
func (l *rateLog) flush(window time.Duration) {
	for r := Reason(0); r < numReasons; r++ {
		rl := &l.reasons[r]
		n := rl.pending.Swap(0)
		if n == 0 {
			continue
		}
		msg := strings.TrimPrefix(rl.last.Load().Msg, headline(r)+": ")
		l.logger.Warn(fmt.Sprintf("%s %d times in the last %s: %s", headline(r), n, window.Round(time.Millisecond), msg),
			"reason", r.String(), "count", n)
	}
}

func (l *rateLog) run() {
	defer l.done.Done()
	t := time.NewTicker(l.interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			l.flush(l.interval)
		case <-l.stop:
			return
		}
	}
}

// close stops the ticker and logs what is still pending.
func (l *rateLog) close() {
	close(l.stop)
	l.done.Wait()
	l.flush(l.interval)
}

func headline(r Reason) string {
	switch {
	case r.IsPool():
		return "pool exhausted"
	case r == Trap:
		return "plugin trapped"
	case r == Timeout:
		return "plugin timed out"
	}
	return "request failed"
}
