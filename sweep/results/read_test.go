package results

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadLines: blank lines are skipped, a torn last line (no newline,
// not decoding) is the interrupted write of a run and dropped, any other
// line that does not decode is an error naming the file and line; a
// missing file is fs.ErrNotExist.
func TestReadLines(t *testing.T) {
	good := `{"config":"a","concurrency":1,"round":0,"requests":10}`
	tests := []struct {
		name    string
		content string
		want    int    // windows read
		wantErr string // substring of the error, "" for none
	}{
		{"empty", "", 0, ""},
		{"two lines", good + "\n" + good + "\n", 2, ""},
		{"blank lines", "\n" + good + "\n\n  \n" + good + "\n", 2, ""},
		{"last line without newline", good + "\n" + good, 2, ""},
		{"torn last line", good + "\n" + `{"config":"a","concu`, 1, ""},
		{"corrupt middle line", good + "\n{not json}\n" + good + "\n", 0, "results.jsonl:2: corrupt window record"},
		{"corrupt complete last line", good + "\n" + `{"config":"a",` + "\n", 0, "results.jsonl:2: corrupt window record"},
		{"wrong type", `{"config":"a","requests":"many"}` + "\n", 0, "results.jsonl:1: corrupt window record"},
	}
	if _, err := Read(filepath.Join(t.TempDir(), "results.jsonl")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read of a missing file: err = %v, want not exist", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "results.jsonl")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			ws, err := Read(path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(ws) != tt.want {
				t.Fatalf("read %d windows, want %d", len(ws), tt.want)
			}
			for _, w := range ws {
				if w.Config != "a" || w.Requests != 10 {
					t.Errorf("window decoded as %+v", w)
				}
			}
		})
	}
}
