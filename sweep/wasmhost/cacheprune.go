package wasmhost

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// staleTemp is how old a temporary file of store must be before prune
// takes it for the remains of a writer that died: a store takes well
// under a second.
const staleTemp = time.Hour

// prune keeps the cache within c.Limit: it removes the least recently
// used entries (by modification time, which load renews) until the rest
// fit, never the entry keep (just stored, so in use), and temporary files
// older than staleTemp. It returns how many entries it removed and their
// bytes. Servers prune concurrently: an entry another one removed first
// is skipped, and one removed while a server reads it costs that server a
// compile, never a wrong artifact (load checks every entry's hash).
func (c Cache) prune(keep string) (removed int, freed int64) {
	if c.Dir == "" || c.Limit <= 0 {
		return 0, 0
	}
	des, err := os.ReadDir(c.Dir)
	if err != nil {
		return 0, 0
	}
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var es []entry
	var total int64
	for _, de := range des {
		info, err := de.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		path := filepath.Join(c.Dir, de.Name())
		switch {
		case strings.HasSuffix(de.Name(), ".tmp"):
			if time.Since(info.ModTime()) > staleTemp {
				os.Remove(path)
			}
		case strings.HasSuffix(de.Name(), ".cwasm"):
			es = append(es, entry{path, info.Size(), info.ModTime()})
			total += info.Size()
		}
	}
	slices.SortFunc(es, func(a, b entry) int { return a.used.Compare(b.used) }) // oldest first
	for _, e := range es {
		if total <= c.Limit {
			break
		}
		if e.path == c.path(keep) {
			continue
		}
		if err := os.Remove(e.path); err == nil {
			removed++
			freed += e.size
		}
		total -= e.size // gone either way (another server may have removed it)
	}
	return removed, freed
}
