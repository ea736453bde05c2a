package driver

import (
	"testing"

	"github.com/sweep-dev/sweep/sweep/schedule"
)

// TestRequestURL: the built-in host's load goes to load.path as written,
// its query too (a path escaped into "/echo%3Fn=32" met a 404).
func TestRequestURL(t *testing.T) {
	for _, path := range []string{"/", "/echo?n=32", "/api/v1?x=1&y=2"} {
		c := loadConfig(t, t.TempDir(), `
name = "url"
[target]
kind = "builtin"
plugin = "workload"
[grid]
linear_memory_keep_resident = [0, "64KiB"]
[load]
concurrency = [1]
path = "`+path+`"
`)
		got, err := requestURL(c, schedule.Slot{Config: "linear_memory_keep_resident=0"}, 0, "127.0.0.1:8080")
		if want := "http://127.0.0.1:8080" + path; err != nil || got != want {
			t.Errorf("path %q: %q, %v; want %q", path, got, err, want)
		}
	}
}
