// Package results reads and appends results.jsonl, the run directory's
// record of measured windows: one JSON object (a sweep.Window) per line.
// Appends are fsync'd as each window ends so that a crash, a full disk or a
// Ctrl-C never loses a completed window; reads tolerate the torn last line
// an interruption can leave behind.
package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sweep-dev/sweep/sweep"
)

// Writer appends windows to a results file.
type Writer struct {
	f    *os.File
	path string
}

// Create opens path for appending, creating it if needed. If the file ends
// in a torn line (an interrupted earlier run), the torn bytes are cut off
// first so the next record starts on a line of its own.
func Create(path string) (*Writer, error) {
	if err := trimTorn(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening results: %w", err)
	}
	return &Writer{f: f, path: path}, nil
}

// Append writes w as one line, stamped with the schema this build writes
// (sweep.ResultsSchema), and fsyncs the file before returning.
func (wr *Writer) Append(w sweep.Window) error {
	w.Schema = sweep.ResultsSchema
	b, err := json.Marshal(w)
	if err != nil {
		return fmt.Errorf("encoding window: %w", err)
	}
	b = append(b, '\n')
	if _, err := wr.f.Write(b); err != nil {
		return fmt.Errorf("appending to %s: %w", wr.path, err)
	}
	if err := wr.f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", wr.path, err)
	}
	return nil
}

// Close closes the file.
func (wr *Writer) Close() error { return wr.f.Close() }

// trimTorn truncates a trailing partial line, if any.
func trimTorn(path string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading results: %w", err)
	}
	if len(b) == 0 || b[len(b)-1] == '\n' {
		return nil
	}
	cut := bytes.LastIndexByte(b, '\n') + 1
	if err := os.Truncate(path, int64(cut)); err != nil {
		return fmt.Errorf("trimming torn line of %s: %w", path, err)
	}
	return nil
}

// Read returns every window in path. A torn final line (no newline and not
// valid JSON) is skipped; a corrupt line elsewhere is an error naming the
// file and line.
func Read(path string) ([]sweep.Window, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	defer f.Close()
	return Decode(f, path)
}

// SchemaError is Decode's error for a record written by a newer sweep,
// whose results schema this build does not know.
type SchemaError struct {
	Name string
	Line int
	Got  int // the record's schema
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("%s:%d: window record of results schema %d, newer than this sweep reads (up to %d): use a newer sweep", e.Name, e.Line, e.Got, sweep.ResultsSchema)
}

// Decode reads windows from r; name is used in error messages. Records
// of every schema up to sweep.ResultsSchema are read (those written
// before the schema was recorded have none); a newer one is a
// *SchemaError.
func Decode(r io.Reader, name string) ([]sweep.Window, error) {
	br := bufio.NewReader(r)
	var out []sweep.Window
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			var w sweep.Window
			if jerr := json.Unmarshal(b, &w); jerr != nil {
				if err == io.EOF && b[len(b)-1] != '\n' {
					return out, nil // torn last line of an interrupted run
				}
				return nil, fmt.Errorf("%s:%d: corrupt window record: %w", name, line, jerr)
			}
			if w.Schema > sweep.ResultsSchema {
				return nil, &SchemaError{Name: name, Line: line, Got: w.Schema}
			}
			out = append(out, w)
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
	}
}
