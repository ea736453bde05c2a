package target

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestStartErrorFields: an early exit is a *StartError whose fields give
// the cause, the stream and its tail; its text is the one Start has always
// written.
func TestStartErrorFields(t *testing.T) {
	s := helper("-crash-before-ready")
	s.ReadyLine = true
	_, err := Start(context.Background(), s)
	var se *StartError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v (%T), want a *StartError", err, err)
	}
	if !errors.Is(se.Err, ErrExitedEarly) || se.Stream != StreamStderr || !strings.Contains(se.Tail, "boom: bad config value") {
		t.Errorf("StartError{Err: %v, Stream: %q, Tail: %q}; want ErrExitedEarly, stderr and the last words", se.Err, se.Stream, se.Tail)
	}
	if want := se.Err.Error() + ": stderr tail:\n" + se.Tail; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
}

// TestStartErrorText: the header names the stream the tail is from.
func TestStartErrorText(t *testing.T) {
	cause := errors.New("cause")
	for _, tt := range []struct {
		e    *StartError
		want string
	}{
		{&StartError{Err: cause}, "cause: no output"},
		{&StartError{Err: cause, Stream: StreamStderr, Tail: "a\nb"}, "cause: stderr tail:\na\nb"},
		{&StartError{Err: cause, Stream: StreamStdout, Tail: "a"}, "cause: no stderr output; stdout tail:\na"},
		{&StartError{Err: cause, Stream: StreamStdout, Tail: "a", readyLine: true}, "cause; stdout tail:\na"},
	} {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
		if !errors.Is(tt.e, cause) {
			t.Errorf("%q does not unwrap to its cause", tt.e)
		}
	}
}
