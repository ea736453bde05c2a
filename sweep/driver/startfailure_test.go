package driver

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep/target"
)

// parsedStartFailure is how the driver used to get a start failure's
// reason and tail: by parsing the text target.Start appends to its error.
// startFailure must give what it gave for every error that text parsing
// understood.
func parsedStartFailure(err error) (reason, tail string) {
	first, rest, _ := strings.Cut(strings.TrimSpace(err.Error()), "\n")
	first = strings.TrimSpace(first)
	for _, h := range []string{"no stderr output; stdout tail:", "stderr tail:"} {
		first = strings.TrimSpace(strings.TrimSuffix(first, h))
	}
	first = strings.TrimSuffix(first, ":")
	if line := lastLine(rest); line != "" {
		first += ": " + line
	}
	return first, rest
}

// TestStartFailure: the reason is the cause and the server's last output
// line, the tail its output, as the old text parsing had them.
func TestStartFailure(t *testing.T) {
	never := fmt.Errorf("%w within 1s", target.ErrNeverReady)
	exited := fmt.Errorf("%w: %q exit status 3", target.ErrExitedEarly, "/bin/server")
	for _, tt := range []struct {
		err          error
		reason, tail string
	}{
		{&target.StartError{Err: never, Stream: target.StreamStderr, Tail: "starting\nburner: refusing \n\n"},
			"starting cfg: target never became ready within 1s: burner: refusing", "starting\nburner: refusing"},
		{&target.StartError{Err: exited, Stream: target.StreamStdout, Tail: "hello\nbye"},
			`starting cfg: target exited before it was ready: "/bin/server" exit status 3: bye`, "hello\nbye"},
		{&target.StartError{Err: never},
			"starting cfg: target never became ready within 1s: no output", ""},
		{errors.New(`target "x" runs on CPUs 1, want 0`),
			`starting cfg: target "x" runs on CPUs 1, want 0`, ""},
	} {
		err := startErr("cfg", tt.err)
		reason, tail := startFailure("cfg", err)
		if reason != tt.reason || tail != tt.tail {
			t.Errorf("startFailure(%q) = %q, %q; want %q, %q", err, reason, tail, tt.reason, tt.tail)
		}
		if r, tl := parsedStartFailure(err); r != reason || tl != tail {
			t.Errorf("startFailure(%q) = %q, %q; the text parsing gave %q, %q", err, reason, tail, r, tl)
		}
	}
}
