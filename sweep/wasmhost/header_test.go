package wasmhost

import (
	"bytes"
	"fmt"
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

// componentLayout pairs each tag and layout figure of component.h's
// hand-copied declarations (ours) with the same figure of Wasmtime's own
// header (real): the value kinds and item kinds component.c switches on,
// and the size and field offsets of every struct passed to or read from
// Wasmtime.
var componentLayout = []struct{ name, ours, real string }{
	{"val kind U16", "SWEEP_VAL_U16", "WASMTIME_COMPONENT_U16"},
	{"val kind S32", "SWEEP_VAL_S32", "WASMTIME_COMPONENT_S32"},
	{"val kind S64", "SWEEP_VAL_S64", "WASMTIME_COMPONENT_S64"},
	{"val kind STRING", "SWEEP_VAL_STRING", "WASMTIME_COMPONENT_STRING"},
	{"val kind LIST", "SWEEP_VAL_LIST", "WASMTIME_COMPONENT_LIST"},
	{"val kind TUPLE", "SWEEP_VAL_TUPLE", "WASMTIME_COMPONENT_TUPLE"},
	{"val kind RESULT", "SWEEP_VAL_RESULT", "WASMTIME_COMPONENT_RESULT"},
	{"item kind COMPONENT_INSTANCE", "SWEEP_ITEM_COMPONENT_INSTANCE", "WASMTIME_COMPONENT_ITEM_COMPONENT_INSTANCE"},
	{"item kind COMPONENT_FUNC", "SWEEP_ITEM_COMPONENT_FUNC", "WASMTIME_COMPONENT_ITEM_COMPONENT_FUNC"},

	{"sizeof val", "sizeof(sweep_val)", "sizeof(wasmtime_component_val_t)"},
	{"sizeof val.kind", "sizeof(((sweep_val *)0)->kind)", "sizeof(wasmtime_component_valkind_t)"},
	{"offsetof val.of", "offsetof(sweep_val, of)", "offsetof(wasmtime_component_val_t, of)"},
	{"sizeof val.of", "sizeof(((sweep_val *)0)->of)", "sizeof(wasmtime_component_valunion_t)"},
	{"offsetof val.of.u16", "offsetof(sweep_val, of.u16)", "offsetof(wasmtime_component_val_t, of.u16)"},
	{"offsetof val.of.s32", "offsetof(sweep_val, of.s32)", "offsetof(wasmtime_component_val_t, of.s32)"},
	{"offsetof val.of.s64", "offsetof(sweep_val, of.s64)", "offsetof(wasmtime_component_val_t, of.s64)"},
	{"offsetof val.of.string.size", "offsetof(sweep_val, of.string.size)", "offsetof(wasmtime_component_val_t, of.string.size)"},
	{"offsetof val.of.string.data", "offsetof(sweep_val, of.string.data)", "offsetof(wasmtime_component_val_t, of.string.data)"},
	{"offsetof val.of.list.size", "offsetof(sweep_val, of.list.size)", "offsetof(wasmtime_component_val_t, of.list.size)"},
	{"offsetof val.of.list.data", "offsetof(sweep_val, of.list.data)", "offsetof(wasmtime_component_val_t, of.list.data)"},
	{"offsetof val.of.tuple.size", "offsetof(sweep_val, of.tuple.size)", "offsetof(wasmtime_component_val_t, of.tuple.size)"},
	{"offsetof val.of.tuple.data", "offsetof(sweep_val, of.tuple.data)", "offsetof(wasmtime_component_val_t, of.tuple.data)"},
	{"offsetof val.of.result.is_ok", "offsetof(sweep_val, of.result.is_ok)", "offsetof(wasmtime_component_val_t, of.result.is_ok)"},
	{"offsetof val.of.result.val", "offsetof(sweep_val, of.result.val)", "offsetof(wasmtime_component_val_t, of.result.val)"},
	{"sizeof vallist", "sizeof(sweep_vallist)", "sizeof(wasmtime_component_vallist_t)"},
	{"sizeof valrecord", "sizeof(sweep_valrecord)", "sizeof(wasmtime_component_valrecord_t)"},
	{"sizeof valflags", "sizeof(sweep_valflags)", "sizeof(wasmtime_component_valflags_t)"},
	{"sizeof valvariant", "sizeof(sweep_valvariant)", "sizeof(wasmtime_component_valvariant_t)"},
	{"offsetof valvariant.val", "offsetof(sweep_valvariant, val)", "offsetof(wasmtime_component_valvariant_t, val)"},
	{"sizeof valresult", "sizeof(sweep_valresult)", "sizeof(wasmtime_component_valresult_t)"},
	{"offsetof valresult.val", "offsetof(sweep_valresult, val)", "offsetof(wasmtime_component_valresult_t, val)"},

	{"sizeof item", "sizeof(sweep_item)", "sizeof(wasmtime_component_item_t)"},
	{"sizeof item.kind", "sizeof(((sweep_item *)0)->kind)", "sizeof(wasmtime_component_item_kind_t)"},
	{"offsetof item.of", "offsetof(sweep_item, of)", "offsetof(wasmtime_component_item_t, of)"},
	{"sizeof item.of", "sizeof(((sweep_item *)0)->of)", "sizeof(wasmtime_component_item_union_t)"},
	{"sizeof item.of.valtype", "sizeof(((sweep_item *)0)->of.valtype)", "sizeof(wasmtime_component_valtype_t)"},

	{"sizeof byte_vec", "sizeof(wasm_byte_vec_t)", "sizeof(wasm_byte_vec_t)"},
	{"offsetof byte_vec.data", "offsetof(wasm_byte_vec_t, data)", "offsetof(wasm_byte_vec_t, data)"},
	{"sizeof component_instance", "sizeof(wasmtime_component_instance_t)", "sizeof(wasmtime_component_instance_t)"},
	{"offsetof component_instance private", "offsetof(wasmtime_component_instance_t, private_)", "offsetof(wasmtime_component_instance_t, __private)"},
	{"sizeof component_func", "sizeof(wasmtime_component_func_t)", "sizeof(wasmtime_component_func_t)"},
	{"offsetof component_func private1", "offsetof(wasmtime_component_func_t, s.private1)", "offsetof(wasmtime_component_func_t, __private1)"},
	{"offsetof component_func private2", "offsetof(wasmtime_component_func_t, private2)", "offsetof(wasmtime_component_func_t, __private2)"},
}

// TestComponentHeaderLayout holds component.h's copies of Wasmtime 39's
// component-model declarations to the headers shipped with the
// wasmtime-go module sweep links (build/include): it compiles two small C
// programs with the toolchain cgo uses, one with component.h and one with
// Wasmtime's <wasmtime.h>, each printing the figures of componentLayout
// (tags, sizes, offsets), and wants them equal. It needs no cgo of its
// own: Go allows none in test files.
func TestComponentHeaderLayout(t *testing.T) {
	include := wasmtimeInclude(t)
	cc := "cc"
	if out, err := exec.Command(goCommand(t), "env", "CC").Output(); err == nil && strings.TrimSpace(string(out)) != "" {
		cc = strings.TrimSpace(string(out))
	}
	pkg, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	ours := layoutFigures(t, cc, "ours", `#include "component.h"`, "-I"+pkg, func(c struct{ name, ours, real string }) string { return c.ours })
	real := layoutFigures(t, cc, "real", "#include <wasmtime.h>", "-I"+include, func(c struct{ name, ours, real string }) string { return c.real })
	for i, c := range componentLayout {
		if ours[i] != real[i] {
			t.Errorf("%s: component.h has %s = %s; Wasmtime's header %s = %s", c.name, c.ours, ours[i], c.real, real[i])
		}
	}
}

// layoutFigures compiles and runs a C program that includes header
// (found with the -I flag incl) and prints expr(c) for each entry of
// componentLayout, one per line; it returns the lines.
func layoutFigures(t *testing.T, cc, name, header, incl string, expr func(struct{ name, ours, real string }) string) []string {
	t.Helper()
	var src strings.Builder
	fmt.Fprintf(&src, "#include <stddef.h>\n#include <stdio.h>\n%s\nint main(void) {\n", header)
	for _, c := range componentLayout {
		fmt.Fprintf(&src, "\tprintf(\"%%zu\\n\", (size_t)(%s));\n", expr(c))
	}
	src.WriteString("\treturn 0;\n}\n")
	dir := t.TempDir()
	c, exe := filepath.Join(dir, name+".c"), filepath.Join(dir, name)
	if err := os.WriteFile(c, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-std=gnu11", "-Wall", "-Werror", incl, "-o", exe, c).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", cc, name, err, out)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(componentLayout) {
		t.Fatalf("%s printed %d figures, want %d", name, len(lines), len(componentLayout))
	}
	return lines
}
