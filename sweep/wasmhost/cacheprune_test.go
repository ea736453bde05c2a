package wasmhost

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCachePrune: storing past the limit removes the least recently used
// entries (a load renews an entry's use), never the one just stored,
// and sweeps out temporary files a dead writer left, not a live one's.
func TestCachePrune(t *testing.T) {
	c := Cache{Dir: t.TempDir(), Limit: 3000}
	art := make([]byte, 900) // with its header, a bit under 1000 bytes on disk
	old := time.Now().Add(-time.Hour)
	for i, key := range []string{"a", "b", "c"} {
		if err := c.store(key, art, time.Second); err != nil {
			t.Fatal(err)
		}
		at := old.Add(time.Duration(i) * time.Minute) // a oldest, c newest
		if err := os.Chtimes(c.path(key), at, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := c.load("a"); err != nil { // a is now the most recently used
		t.Fatal(err)
	}
	deadTmp := filepath.Join(c.Dir, "x.123.tmp")
	liveTmp := filepath.Join(c.Dir, "y.456.tmp")
	for _, f := range []string{deadTmp, liveTmp} {
		if err := os.WriteFile(f, art, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	dead := time.Now().Add(-2 * staleTemp)
	os.Chtimes(deadTmp, dead, dead)

	if err := c.store("d", art, time.Second); err != nil {
		t.Fatal(err)
	}
	n, freed := c.prune("d")
	if got, want := names(t, c.Dir), []string{"a.cwasm", "c.cwasm", "d.cwasm", "y.456.tmp"}; !slices.Equal(got, want) {
		t.Errorf("after prune: %v, want %v (b least recently used, the dead writer's file gone)", got, want)
	}
	if n != 1 || freed <= 900 {
		t.Errorf("prune removed %d entries, %d bytes; want 1 entry of about 1000 bytes", n, freed)
	}

	// An entry alone above the limit stays: it was just stored.
	c.Limit = 10
	if err := c.store("e", art, time.Second); err != nil {
		t.Fatal(err)
	}
	c.prune("e")
	if got := names(t, c.Dir); !slices.Equal(got, []string{"e.cwasm", "y.456.tmp"}) {
		t.Errorf("with a limit below one entry: %v, want only the entry just stored", got)
	}

	// No limit, or the cache off: nothing removed.
	c.Limit = 0
	if n, _ := c.prune("none"); n != 0 || len(names(t, c.Dir)) != 2 {
		t.Errorf("prune without a limit removed %d", n)
	}
}

// TestDefaultCacheLimit: the limit is DefaultCacheLimit, or $SWEEP_CACHE_MAX;
// a value that is not a size is an error naming the variable.
func TestDefaultCacheLimit(t *testing.T) {
	t.Setenv(CacheDirEnv, t.TempDir())
	for _, tc := range []struct {
		env   string
		limit int64
		err   string
	}{
		{"", DefaultCacheLimit, ""},
		{"512MiB", 512 << 20, ""},
		{"lots", 0, `SWEEP_CACHE_MAX="lots": want a size above 0 such as "4GiB"`},
		{"0", 0, `SWEEP_CACHE_MAX="0": want a size above 0`},
	} {
		t.Setenv(CacheMaxEnv, tc.env)
		c, err := DefaultCache()
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s=%q: error %v, want %q", CacheMaxEnv, tc.env, err, tc.err)
		case tc.err == "" && (err != nil || c.Limit != tc.limit):
			t.Errorf("%s=%q: limit %d, err %v; want %d", CacheMaxEnv, tc.env, c.Limit, err, tc.limit)
		}
	}
	t.Setenv(CacheMaxEnv, "lots")
	if _, err := New(Options{}); err == nil || !strings.Contains(err.Error(), CacheMaxEnv) {
		t.Errorf("New with a bad %s: %v, want an error naming it", CacheMaxEnv, err)
	}
}

// names lists dir's files, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}
