package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/sweep-dev/sweep/sweep"
	"github.com/sweep-dev/sweep/sweep/results"
)

// ReadSummary reads summary.json at path.
func ReadSummary(path string) (sweep.Summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return sweep.Summary{}, fmt.Errorf("reading summary: %w", err)
	}
	var s sweep.Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return sweep.Summary{}, fmt.Errorf("%s: %w", jsonPos(path, b, err), err)
	}
	return s, nil
}

// jsonPos names the file and, for syntax and type errors, the line of the
// offending byte.
func jsonPos(path string, b []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(b)) {
		return path
	}
	return fmt.Sprintf("%s:%d", path, 1+bytes.Count(b[:off], []byte{'\n'}))
}

// ReadWindows reads results.jsonl at path: one sweep.Window per line,
// blank lines ignored. A final line without a newline that does not decode
// is the torn write of an interrupted run and is skipped; any other line
// that does not decode is an error naming path:line.
func ReadWindows(path string) ([]sweep.Window, error) {
	return results.Read(path)
}
