package wasmhost

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/version"
)

// CacheDirEnv overrides the compile cache's directory; "off" disables it.
const CacheDirEnv = "SWEEP_CACHE_DIR"

// cacheMagic starts every cache entry; the compile's duration (8 bytes,
// little-endian nanoseconds) and the SHA-256 of the artifact follow.
const cacheMagic = "sweep compiled artifact 2\n"

// Cache keeps compiled plugins on disk, so that a plugin is compiled once
// and not at every server start: a big component takes minutes to
// compile and milliseconds to load. An entry is keyed by the Wasmtime
// version, the engine settings that change compiled code and the hash of
// the plugin's bytes. Every entry carries the SHA-256 of its artifact: an
// entry that does not match it, or that Wasmtime refuses to load
// (another Wasmtime, other settings), is compiled again and replaced,
// never used.
type Cache struct {
	// Dir holds the entries; the cache is off when Dir is "".
	Dir string
}

// DefaultCache is the cache in $SWEEP_CACHE_DIR, or in sweep/compiled
// under the user's cache directory (os.UserCacheDir); off if
// $SWEEP_CACHE_DIR is "off" or there is no cache directory.
func DefaultCache() Cache {
	switch d := os.Getenv(CacheDirEnv); d {
	case "off":
		return Cache{}
	case "":
	default:
		return Cache{Dir: d}
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return Cache{}
	}
	return Cache{Dir: filepath.Join(base, "sweep", "compiled")}
}

// cacheKey names the entry of wasm compiled for an engine with settings
// s. Only max_memory_size changes code among sweep's settings (it bounds
// the memory reservation, hence the bounds checks); the pooling limits and
// memory_init_cow act at instantiation. Wasmtime checks the rest when it
// loads an entry.
func cacheKey(wasm []byte, s *setting.Settings, component bool) string {
	h := sha256.New()
	fmt.Fprintf(h, "wasmtime %s\ncomponent %v\nmax_memory_size %d\n", version.Wasmtime(), component, s.Size(setting.MaxMemorySize))
	sum := sha256.Sum256(wasm)
	h.Write(sum[:])
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func (c Cache) path(key string) string { return filepath.Join(c.Dir, key+".cwasm") }

// errNoEntry means the cache has no usable entry (or is off).
var errNoEntry = errors.New("no cache entry")

// load returns the artifact stored under key, after checking its hash,
// and how long its compile took. A corrupt entry is removed and reported
// as errNoEntry.
func (c Cache) load(key string) ([]byte, time.Duration, error) {
	if c.Dir == "" {
		return nil, 0, errNoEntry
	}
	data, err := os.ReadFile(c.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, errNoEntry
	}
	if err != nil {
		return nil, 0, err
	}
	at := len(cacheMagic)
	head := at + 8 + sha256.Size
	if len(data) < head || string(data[:at]) != cacheMagic {
		c.drop(key)
		return nil, 0, errNoEntry
	}
	took := time.Duration(binary.LittleEndian.Uint64(data[at:]))
	sum := sha256.Sum256(data[head:])
	if !bytes.Equal(sum[:], data[at+8:head]) {
		c.drop(key)
		return nil, 0, errNoEntry
	}
	return data[head:], took, nil
}

// store writes an entry atomically (a temporary file renamed into place),
// so that concurrent servers never read half an entry.
func (c Cache) store(key string, artifact []byte, took time.Duration) error {
	if c.Dir == "" || artifact == nil {
		return nil
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(c.Dir, key+".*.tmp")
	if err != nil {
		return err
	}
	sum := sha256.Sum256(artifact)
	head := binary.LittleEndian.AppendUint64([]byte(cacheMagic), uint64(took))
	_, err = f.Write(append(append(head, sum[:]...), artifact...))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), c.path(key))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// drop removes a bad entry.
func (c Cache) drop(key string) { os.Remove(c.path(key)) }
