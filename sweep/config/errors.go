package config

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrConfig is wrapped by every error Load and Parse return, so that a
// caller can tell a bad config (exit code 2) from other failures.
var ErrConfig = errors.New("invalid config")

// configError is one line: "PATH: message". It wraps ErrConfig and, when
// there is one, the underlying cause (a units, setting or cpuset error).
type configError struct {
	path  string
	msg   string
	cause error
}

func (e *configError) Error() string { return e.path + ": " + e.msg }

func (e *configError) Unwrap() []error {
	if e.cause != nil {
		return []error{ErrConfig, e.cause}
	}
	return []error{ErrConfig}
}

// oneLine folds any line breaks in msg (from a library message) so that
// every config error stays a single line.
func oneLine(msg string) string {
	msg = strings.ReplaceAll(msg, "\r\n", " ")
	msg = strings.ReplaceAll(msg, "\n", " ")
	return strings.ReplaceAll(msg, "\r", " ")
}

// fail records the first error of a parse; later calls are ignored, so
// checks can run in sequence and the user sees the first problem in a
// fixed order (file order for unknown keys, then section by section).
func (p *parser) fail(cause error, format string, args ...any) {
	if p.err != nil {
		return
	}
	p.err = &configError{path: p.path, msg: oneLine(fmt.Sprintf(format, args...)), cause: cause}
}

// failf records an error without an underlying cause.
func (p *parser) failf(format string, args ...any) { p.fail(nil, format, args...) }

// show formats a decoded TOML value the way it would be written in the
// file, shortened to keep error lines readable.
func show(v any) string {
	var s string
	switch v := v.(type) {
	case string:
		s = fmt.Sprintf("%q", v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = show(e)
		}
		s = "[" + strings.Join(parts, ", ") + "]"
	case []map[string]any:
		s = "(array of tables)"
	case map[string]any:
		s = "(table)"
	case time.Time:
		s = v.Format(time.RFC3339Nano)
	default:
		s = fmt.Sprint(v)
	}
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// intList formats levels as written in TOML: [1, 4, 16].
func intList(levels []int) string {
	parts := make([]string, len(levels))
	for i, n := range levels {
		parts[i] = fmt.Sprint(n)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// typeName names the TOML type of a decoded value for error messages.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case []map[string]any:
		return "an array of tables"
	case map[string]any:
		return "a table"
	}
	return "a date/time"
}
