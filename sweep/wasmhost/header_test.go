package wasmhost

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// wasmtimeModule is the module whose build/include holds the headers of
// the libwasmtime.a that sweep links.
const wasmtimeModule = "github.com/bytecodealliance/wasmtime-go/v39"

// wasmtimeInclude is the include directory of the wasmtime-go module this
// package builds with (go list -m), holding Wasmtime's own C headers.
func wasmtimeInclude(t *testing.T) string {
	t.Helper()
	out, err := exec.Command(goCommand(t), "list", "-m", "-f", "{{.Dir}}", wasmtimeModule).Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", wasmtimeModule, err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "build", "include")
	if _, err := os.Stat(filepath.Join(dir, "wasmtime", "component", "val.h")); err != nil {
		t.Fatalf("%s has no Wasmtime component headers: %v", dir, err)
	}
	return dir
}

// goCommand is the go command on $PATH, which go test runs from.
func goCommand(t *testing.T) string {
	t.Helper()
	g, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command: %v", err)
	}
	return g
}

// TestPagemapScanSetter holds PagemapScan (false: the host leaves
// PAGEMAP_SCAN off, as summary.json's engine_pagemap_scan records) to the
// shipped C API: its pooling configuration has setters (the host uses
// linear_memory_keep_resident's), and none of them, nor anything else in
// Wasmtime's headers, names pagemap_scan. A Wasmtime whose C API gains
// one fails this test, so that PagemapScan and the reports' sentence
// are looked at again.
func TestPagemapScanSetter(t *testing.T) {
	dir := wasmtimeInclude(t)
	config, err := os.ReadFile(filepath.Join(dir, "wasmtime", "config.h"))
	if err != nil {
		t.Fatal(err)
	}
	const keep = "WASMTIME_POOLING_ALLOCATION_CONFIG_PROP(linear_memory_keep_resident"
	if !bytes.Contains(config, []byte(keep)) {
		t.Fatalf("wasmtime/config.h has no %s: not the pooling C API this test knows", keep)
	}
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".h") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(bytes.ToLower(b), []byte("pagemap")) {
			t.Errorf("%s names pagemap: the C API may now turn PAGEMAP_SCAN on; look at wasmhost.PagemapScan (%v) again", path, PagemapScan)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if PagemapScan {
		t.Errorf("PagemapScan = true, but the host has no way to turn it on")
	}
}
