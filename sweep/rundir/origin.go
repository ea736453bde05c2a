package rundir

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Origin records where a run's config came from, so that -resume resolves
// relative paths (plugins, commands) against the original directory.
type Origin struct {
	ConfigPath string `json:"config_path"` // absolute path of the original config file
	// Shard is "i/n" when the run measures shard i of n of its plan's
	// blocks (-shard); -resume continues the same shard, and sweep merge
	// reads it. "" for the whole plan.
	Shard string `json:"shard,omitempty"`
}

// ReadOrigin reads dir/origin.json; a missing file yields the zero Origin.
func ReadOrigin(dir string) (Origin, error) {
	var o Origin
	p := filepath.Join(dir, OriginFile)
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return o, nil
	}
	if err != nil {
		return o, fmt.Errorf("reading run origin: %w", err)
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return o, fmt.Errorf("%s: %w", p, err)
	}
	return o, nil
}

// WriteOrigin writes o to dir/origin.json (WriteFile).
func WriteOrigin(dir string, o Origin) error {
	b, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("encoding run origin: %w", err)
	}
	return WriteFile(filepath.Join(dir, OriginFile), append(b, '\n'))
}
