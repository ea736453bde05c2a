package target

import (
	"bytes"
	"strings"
	"sync"
)

// maxLine caps the bytes kept of one output line; the rest of a longer
// line is dropped and the line marked with "…".
const maxLine = 2048

// tail is an io.Writer that keeps the last n lines written to it, plus an
// unfinished last line, in bounded memory. onLine, if set, sees every
// complete line (capped at maxLine) as it arrives.
type tail struct {
	mu      sync.Mutex
	n       int
	lines   []string // ring of at most n lines
	next    int      // ring write index once full
	partial []byte   // current unfinished line, at most maxLine bytes
	cut     bool     // partial lost bytes
	onLine  func(string)
}

func newTail(n int, onLine func(string)) *tail {
	return &tail{n: n, onLine: onLine}
}

// Write never fails, so copying a pipe into a tail drains it completely.
func (t *tail) Write(p []byte) (int, error) {
	var complete []string
	t.mu.Lock()
	for rest := p; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		chunk := rest
		if i >= 0 {
			chunk = rest[:i]
		}
		room := maxLine - len(t.partial)
		if len(chunk) > room {
			t.partial = append(t.partial, chunk[:room]...)
			t.cut = true
		} else {
			t.partial = append(t.partial, chunk...)
		}
		if i < 0 {
			break
		}
		line := t.take()
		t.push(line)
		complete = append(complete, line)
		rest = rest[i+1:]
	}
	t.mu.Unlock()
	if t.onLine != nil {
		for _, l := range complete {
			t.onLine(l)
		}
	}
	return len(p), nil
}

// take returns and resets the partial line.
func (t *tail) take() string {
	s := strings.TrimSuffix(string(t.partial), "\r")
	if t.cut {
		s += "…"
	}
	t.partial, t.cut = t.partial[:0], false
	return s
}

func (t *tail) push(line string) {
	if t.n <= 0 {
		return
	}
	if len(t.lines) < t.n {
		t.lines = append(t.lines, line)
		return
	}
	t.lines[t.next] = line
	t.next = (t.next + 1) % t.n
}

// String returns the kept lines, oldest first, joined by newlines, then
// the unfinished line if any.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, 0, len(t.lines)+1)
	out = append(out, t.lines[t.next:]...)
	out = append(out, t.lines[:t.next]...)
	if len(t.partial) > 0 {
		s := string(t.partial)
		if t.cut {
			s += "…"
		}
		out = append(out, s)
	}
	if len(out) > t.n && t.n > 0 {
		out = out[len(out)-t.n:]
	}
	return strings.Join(out, "\n")
}
