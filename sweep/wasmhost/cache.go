package wasmhost

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/sweep-dev/sweep/sweep/setting"
	"github.com/sweep-dev/sweep/sweep/units"
	"github.com/sweep-dev/sweep/sweep/version"
)

// CacheDirEnv overrides the compile cache's directory; "off" disables it.
const CacheDirEnv = "SWEEP_CACHE_DIR"

// CacheMaxEnv overrides the compile cache's size limit (a size such as
// "4GiB"; DefaultCacheLimit when unset).
const CacheMaxEnv = "SWEEP_CACHE_MAX"

// DefaultCacheLimit is the compile cache's size limit unless CacheMaxEnv
// says otherwise: about 40 of this project's 50 MB JavaScript components.
const DefaultCacheLimit = 2 << 30

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
	// Limit bounds the entries' total size in bytes: storing an entry
	// removes the least recently used others beyond it (prune). 0: no
	// limit.
	Limit int64
}

// DefaultCache is the cache in $SWEEP_CACHE_DIR, or in sweep/compiled
// under the user's cache directory (os.UserCacheDir), limited to
// $SWEEP_CACHE_MAX or DefaultCacheLimit; off if $SWEEP_CACHE_DIR is "off"
// or there is no cache directory. A $SWEEP_CACHE_MAX that is not a size
// is an error naming it.
func DefaultCache() (Cache, error) {
	limit := int64(DefaultCacheLimit)
	if v := os.Getenv(CacheMaxEnv); v != "" {
		n, err := units.ParseSize(v)
		if err != nil || n == 0 || n > math.MaxInt64 {
			return Cache{}, fmt.Errorf("%s=%q: want a size above 0 such as \"4GiB\" (the compile cache's limit)", CacheMaxEnv, v)
		}
		limit = int64(n)
	}
	switch d := os.Getenv(CacheDirEnv); d {
	case "off":
		return Cache{}, nil
	case "":
	default:
		return Cache{Dir: d, Limit: limit}, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return Cache{}, nil
	}
	return Cache{Dir: filepath.Join(base, "sweep", "compiled"), Limit: limit}, nil
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
	now := time.Now()
	os.Chtimes(c.path(key), now, now) // its last use, for prune
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
