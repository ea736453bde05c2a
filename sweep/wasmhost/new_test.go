package wasmhost

import (
	"strings"
	"testing"

	"github.com/sweep-dev/sweep/sweep/setting"
)

func TestNewRefusesBadSetup(t *testing.T) {
	tests := []struct {
		plugin   string
		settings map[string]string
		want     string
	}{
		{"", map[string]string{"touch": "8MiB", "max_memory_size": "1MiB"},
			"workload: initial_memory, touch (8MiB) and response_bytes (0) need a linear memory of 8MiB, more than max_memory_size 1MiB"},
		{"", map[string]string{"max_memory_size": "1MiB"},
			"workload: initial_memory, touch (0) and response_bytes (0) need a linear memory of 1088KiB, more than max_memory_size 1MiB"},
		{"", map[string]string{"total_memories": "1000000"},
			"total_memories = 1000000: the memory pool needs 3.8PiB of contiguous virtual address space (4128MiB per memory), but the largest free range in this process is"},
		{"", map[string]string{"total_tables": "1000000", "table_elements": "100000000"},
			"total_tables = 1000000 with table_elements = 100000000: the table pool needs 727.6TiB of virtual address space"},
		{"testdata/bigmemory.wat", map[string]string{"max_memory_size": "1MiB"},
			"plugin testdata/bigmemory.wat: compile: module memory does not fit in pooling allocator requirements: memory index 0 is unsupported in this pooling allocator configuration: memory has a minimum byte size of 33554432 which exceeds the limit of 0x100000 bytes"},
		{"testdata/table.wat", map[string]string{"table_elements": "0"},
			"plugin testdata/table.wat: compile: module table does not fit in pooling allocator requirements"},
		{"testdata/badimport.wat", nil,
			"plugin testdata/badimport.wat cannot be linked: unknown import: `env::missing` has not been defined"},
		{"testdata/noabi.wat", nil,
			"plugin testdata/noabi.wat: exports neither handle (core ABI) nor _start (WASI command)"},
		{"testdata/badhandle.wat", nil,
			"plugin testdata/badhandle.wat: core ABI: export handle must have type (func (param i32 i32) (result i64))"},
		{"testdata/missing.wasm", nil, "plugin: open testdata/missing.wasm: no such file or directory"},
		{"testdata/trap.txt", nil, `plugin "testdata/trap.txt": want "workload" or a path to a .wasm or .wat file`},
		{"testdata/notwasm.wasm", nil, "plugin testdata/notwasm.wasm: neither a core module nor a component"},
	}
	for _, tt := range tests {
		t.Run(tt.plugin+" "+tt.want[:20], func(t *testing.T) {
			s, err := setting.FromMap(tt.settings)
			if err != nil {
				t.Fatal(err)
			}
			h, err := New(Options{Plugin: tt.plugin, Settings: s})
			if err == nil {
				h.Close()
				t.Fatalf("New succeeded, want error %q", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error = %q, want one line starting with %q", err, tt.want)
			}
		})
	}
}
