package load

import "strings"

// Kinds of transport error (a request that got no complete HTTP response).
const (
	KindTimeout     = "timeout"      // the request's timeout ran out
	KindConnRefused = "conn_refused" // nothing listens on the port
	KindConnReset   = "conn_reset"   // the peer reset the connection (or it broke: EPIPE)
	KindEOF         = "eof"          // the peer closed the connection mid-request
	KindOther       = "other"        // anything else, e.g. a cancelled window
)

// Kind classifies a vegeta Result.Error of a request without a response.
// vegeta reports errors as strings only, so this matches the texts of Go's
// net and net/http errors, which are stable.
func Kind(msg string) string {
	switch {
	case strings.Contains(msg, "connection refused"):
		return KindConnRefused
	case strings.Contains(msg, "connection reset"), strings.Contains(msg, "broken pipe"):
		return KindConnReset
	case strings.Contains(msg, "context canceled"), strings.Contains(msg, "request canceled"):
		return KindOther
	case strings.Contains(msg, "deadline exceeded"), strings.Contains(msg, "timeout"),
		strings.Contains(msg, "Timeout"):
		return KindTimeout
	case strings.Contains(msg, "EOF"), strings.Contains(msg, "server closed idle connection"):
		return KindEOF
	default:
		return KindOther
	}
}
