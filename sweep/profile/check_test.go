package profile

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestCheckWithoutPerf(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := Check(context.Background())
	var ue *UnavailableError
	if !errors.As(err, &ue) || !strings.Contains(ue.Reason, "perf not found on PATH") {
		t.Fatalf("Check without perf: %v, want an *UnavailableError saying perf is not found", err)
	}
}

func TestRecordFailure(t *testing.T) {
	perr := &PerfError{Args: []string{"record"}, Err: errors.New("exit status 255"), Stderr: "Error: Access to performance monitoring and observability operations is limited."}
	for _, tc := range []struct {
		name string
		v    int
		ok   bool
		euid int
		want string
	}{
		{"unprivileged, paranoid 3", 3, true, 1000, "perf_event_paranoid = 3 forbids system-wide sampling"},
		{"unprivileged, paranoid 0", 0, true, 1000, "perf record fails: Error: Access to performance"},
		{"root, paranoid 3", 3, true, 0, "perf record fails: Error: Access to performance"},
		{"no paranoid file", 0, false, 1000, "perf record fails: Error: Access to performance"},
	} {
		if got := recordFailure(perr, tc.v, tc.ok, tc.euid); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: recordFailure = %q, want it to start with %q", tc.name, got, tc.want)
		}
	}
}
