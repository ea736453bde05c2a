package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep"
)

func TestAppendRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "results.jsonl")
	w, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := w.Append(sweep.Window{Config: "a", Slot: i, Concurrency: 4, Requests: int64(100 + i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[2].Requests != 102 || got[1].Slot != 1 {
		t.Fatalf("read back %+v", got)
	}
}

func TestTornLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "results.jsonl")
	good := `{"config":"a","slot":0,"concurrency":1,"round":0}` + "\n"
	if err := os.WriteFile(p, []byte(good+`{"config":"a","sl`), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Read(p)
	if err != nil || len(got) != 1 {
		t.Fatalf("Read = %d windows, %v; want 1, nil", len(got), err)
	}
	// Appending after a torn line must not glue records together.
	w, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(sweep.Window{Config: "b", Round: 1}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	got, err = Read(p)
	if err != nil || len(got) != 2 || got[1].Config != "b" {
		t.Fatalf("after append: %+v, %v", got, err)
	}
}

func TestCorruptMiddleLine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "results.jsonl")
	data := "{\"config\":\"a\"}\nnot json\n{\"config\":\"b\"}\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(p)
	if err == nil || !strings.Contains(err.Error(), "results.jsonl:2:") {
		t.Fatalf("err = %v, want one naming line 2", err)
	}
}

// TestSchema: a record is written with the current results schema;
// records written before the schema was recorded still read, and a
// record of a newer schema is a *SchemaError naming the file and line.
func TestSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	wr, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := wr.Append(sweep.Window{Config: "a", Requests: 1}); err != nil {
		t.Fatal(err)
	}
	wr.Close()
	ws, err := Read(path)
	if err != nil || len(ws) != 1 || ws[0].Schema != sweep.ResultsSchema {
		t.Fatalf("read back %+v, %v; want one window of schema %d", ws, err, sweep.ResultsSchema)
	}
	old := `{"config":"a","concurrency":1,"round":0,"requests":10}` + "\n"
	if ws, err := Decode(strings.NewReader(old), "old.jsonl"); err != nil || len(ws) != 1 || ws[0].Schema != 0 {
		t.Errorf("a record written before the schema: %+v, %v", ws, err)
	}
	newer := fmt.Sprintf(`{"schema":%d,"config":"a"}`+"\n", sweep.ResultsSchema+1)
	_, err = Decode(strings.NewReader(old+newer), "new.jsonl")
	var se *SchemaError
	if !errors.As(err, &se) || se.Line != 2 || !strings.Contains(err.Error(), "new.jsonl:2") {
		t.Errorf("a newer record: %v, want a *SchemaError at new.jsonl:2", err)
	}
}
