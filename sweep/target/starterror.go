package target

// Streams a StartError's Tail is taken from.
const (
	StreamStderr = "stderr"
	StreamStdout = "stdout"
)

// StartError is the error of a server process that was started but did
// not become ready: it exited first (Err wraps ErrExitedEarly), was not
// ready within Spec.ReadyTimeout (ErrNeverReady), or printed a malformed
// ready line. Err is that cause; Tail is the end of the output that
// explains it, taken from Stream: stderr, or stdout when stderr said
// nothing (and always stdout after a malformed ready line, which is
// there). Stream is "" when the server wrote nothing.
//
// Error is the cause followed by the tail under a header naming its
// stream: "…: stderr tail:\n…", "…: no stderr output; stdout tail:\n…",
// "…; stdout tail:\n…" after a malformed ready line, or "…: no output".
type StartError struct {
	Err    error
	Stream string
	Tail   string

	readyLine bool // the cause is a malformed ready line
}

func (e *StartError) Error() string {
	switch {
	case e.Stream == "":
		return e.Err.Error() + ": no output"
	case e.Stream == StreamStderr:
		return e.Err.Error() + ": stderr tail:\n" + e.Tail
	case e.readyLine:
		return e.Err.Error() + "; stdout tail:\n" + e.Tail
	default:
		return e.Err.Error() + ": no stderr output; stdout tail:\n" + e.Tail
	}
}

// Unwrap returns the cause, so errors.Is finds ErrExitedEarly and
// ErrNeverReady through a StartError.
func (e *StartError) Unwrap() error { return e.Err }
