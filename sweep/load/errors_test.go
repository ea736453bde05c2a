package load

import "testing"

func TestKind(t *testing.T) {
	// Texts as Go's net/http produces them (port numbers vary).
	tests := []struct{ msg, want string }{
		{`Get "http://127.0.0.1:41234/": dial tcp 127.0.0.1:41234: connect: connection refused`, KindConnRefused},
		{`Get "http://127.0.0.1:80/": read tcp 127.0.0.1:5000->127.0.0.1:80: read: connection reset by peer`, KindConnReset},
		{`Post "http://127.0.0.1:80/": write tcp 127.0.0.1:5000->127.0.0.1:80: write: broken pipe`, KindConnReset},
		{`Get "http://127.0.0.1:80/": context deadline exceeded`, KindTimeout},
		{`Get "http://127.0.0.1:80/": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, KindTimeout},
		{`Get "http://127.0.0.1:80/": dial tcp 127.0.0.1:80: i/o timeout`, KindTimeout},
		{`Get "http://127.0.0.1:80/": EOF`, KindEOF},
		{`unexpected EOF`, KindEOF},
		{`Get "http://127.0.0.1:80/": context canceled`, KindOther},
		{`Get "http://127.0.0.1:80/": net/http: request canceled`, KindOther},
		{`Get "http://127.0.0.1:80/": malformed HTTP response "junk"`, KindOther},
	}
	for _, tt := range tests {
		if got := Kind(tt.msg); got != tt.want {
			t.Errorf("Kind(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}
