package wasmhost

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHTTPHeaderAgreement compiles, against the headers of the
// wasmtime-go module in use, a C file that asserts what component.c and
// wasihttp.c assume of them: every SWEEP_VAL_* kind equals its
// WASMTIME_COMPONENT_* value, and the value types wasihttp.c builds
// (variant, result, option, resource) have the layout of sweep_val.
func TestHTTPHeaderAgreement(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler")
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/bytecodealliance/wasmtime-go/v39").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	include := filepath.Join(strings.TrimSpace(string(out)), "build", "include")
	kinds := regexp.MustCompile(`(?m)^#define SWEEP_VAL_([A-Z0-9]+) (\d+)$`)
	var src strings.Builder
	src.WriteString("#include <stddef.h>\n#include <wasmtime.h>\n")
	n := 0
	for _, f := range []string{"component.h", "wasihttp.c"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range kinds.FindAllStringSubmatch(string(b), -1) {
			fmt.Fprintf(&src, "_Static_assert(WASMTIME_COMPONENT_%s == %s, \"%s: SWEEP_VAL_%s\");\n", m[1], m[2], f, m[1])
			n++
		}
	}
	if n < 15 {
		t.Fatalf("found %d SWEEP_VAL_* kinds; the pattern no longer matches the sources", n)
	}
	src.WriteString(`
_Static_assert(sizeof(wasmtime_component_val_t) == 32, "val");
_Static_assert(offsetof(wasmtime_component_val_t, of) == 8, "val.of");
_Static_assert(offsetof(wasmtime_component_valvariant_t, val) == sizeof(wasm_name_t), "variant.val");
_Static_assert(offsetof(wasmtime_component_valresult_t, val) == 8, "result.val");
_Static_assert(sizeof(((wasmtime_component_val_t *)0)->of.option) == sizeof(void *), "option");
_Static_assert(sizeof(((wasmtime_component_val_t *)0)->of.resource) == sizeof(void *), "resource");
_Static_assert(sizeof(wasmtime_component_vallist_t) == 2 * sizeof(void *), "vallist");
`)
	dir := t.TempDir()
	file := filepath.Join(dir, "agree.c")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(cc, "-fsyntax-only", "-I", include, file)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the C sources disagree with %s: %v\n%s", include, err, b)
	}
}
