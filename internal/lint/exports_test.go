package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listed is the part of `go list -json` this check reads.
type listed struct {
	ImportPath      string
	Dir             string
	Name            string
	Export          string
	Standard        bool
	DepOnly         bool
	CompiledGoFiles []string
	TestGoFiles     []string
	XTestGoFiles    []string
	Module          *struct{ Main bool }
}

// TestExportsUsedOutsideTests: every exported identifier of the module
// (a package-level name, or a method that implements no interface) is
// used by the module's non-test code: another package, a command (cmd/,
// bench/) or its own package. One used only by tests is either API for
// no one or a test's back door; unexport it, or test through the real
// owner. Non-test code is type-checked (go/types over the files the
// compiler sees, cgo's output included, for this GOOS and cgo setting);
// test files are only searched for the name.
func TestExportsUsedOutsideTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every package's export data")
	}
	pkgs := goList(t)
	exports := map[string]string{}
	for _, p := range pkgs {
		exports[p.ImportPath] = p.Export
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %q", path)
		}
		return os.Open(f)
	})
	used := map[string]bool{}          // objKey of every object non-test code uses
	declared := map[string]token.Pos{} // objKey of every exported object the module declares
	ifaceMethods := map[string]bool{}
	inTests := map[string]bool{} // every identifier a test file names
	for _, p := range pkgs {
		if p.Module == nil || !p.Module.Main || p.DepOnly {
			continue
		}
		var files []*ast.File
		for _, name := range p.CompiledGoFiles {
			if !filepath.IsAbs(name) {
				name = filepath.Join(p.Dir, name)
			}
			f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
		conf := types.Config{Importer: imp}
		pkg, err := conf.Check(p.ImportPath, fset, files, info)
		if err != nil {
			t.Fatalf("type-checking %s: %v", p.ImportPath, err)
		}
		for _, obj := range info.Uses {
			used[objKey(obj)] = true
		}
		collectInterfaces(pkg, ifaceMethods, map[*types.Package]bool{})
		if p.Name != "main" {
			exported(pkg, declared)
		}
		for _, name := range append(slices.Clone(p.TestGoFiles), p.XTestGoFiles...) {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					inTests[id.Name] = true
				}
				return true
			})
		}
	}
	var bad []string
	for key, pos := range declared {
		name := key[strings.LastIndex(key, ".")+1:]
		if used[key] || !inTests[name] {
			continue
		}
		if strings.Count(key[strings.LastIndex(key, "/")+1:], ".") == 2 && ifaceMethods[name] {
			continue // a method that may implement an interface
		}
		bad = append(bad, fmt.Sprintf("%s: %s", relPos(fset.Position(pos)), key))
	}
	slices.Sort(bad)
	for _, b := range bad {
		t.Errorf("%s is exported and used only by tests: unexport it, delete it, or test through its real owner", b)
	}
}

// goList lists the module's packages and their dependencies with export
// data (building what is not in the build cache).
func goList(t *testing.T) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-deps", "-export", "-compiled", "-json=ImportPath,Dir,Name,Export,Standard,DepOnly,CompiledGoFiles,TestGoFiles,XTestGoFiles,Module", "../../...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// objKey names an object across packages: "path.Name" for a
// package-level one, "path.Type.Name" for a method or field.
func objKey(obj types.Object) string {
	if obj.Pkg() == nil {
		return obj.Name()
	}
	switch o := obj.(type) {
	case *types.Func:
		o = o.Origin()
		if recv := o.Signature().Recv(); recv != nil {
			if n := named(recv.Type()); n != nil {
				return o.Pkg().Path() + "." + n.Obj().Name() + "." + o.Name()
			}
			return "" // an interface's method
		}
	case *types.Var:
		if o.IsField() {
			return "" // fields are read by encoding/json and friends too
		}
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// named is the named type t or *t is, or nil.
func named(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// exported records pkg's exported package-level objects and the exported
// methods of its named types.
func exported(pkg *types.Package, into map[string]token.Pos) {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		into[objKey(obj)] = obj.Pos()
		if tn, ok := obj.(*types.TypeName); ok && !tn.IsAlias() {
			if n, ok := tn.Type().(*types.Named); ok {
				for m := range n.Methods() {
					if m.Exported() {
						into[objKey(m)] = m.Pos()
					}
				}
			}
		}
	}
}

// collectInterfaces adds the method names of every interface type
// declared in pkg or the packages it imports, transitively.
func collectInterfaces(pkg *types.Package, into map[string]bool, seen map[*types.Package]bool) {
	if seen[pkg] {
		return
	}
	seen[pkg] = true
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok {
			if it, ok := tn.Type().Underlying().(*types.Interface); ok {
				for m := range it.Methods() {
					into[m.Name()] = true
				}
			}
		}
	}
	for _, imp := range pkg.Imports() {
		collectInterfaces(imp, into, seen)
	}
}

// relPos is pos with the file name relative to the module root.
func relPos(pos token.Position) string {
	if root, err := filepath.Abs("../.."); err == nil {
		if rel, err := filepath.Rel(root, pos.Filename); err == nil {
			pos.Filename = rel
		}
	}
	return pos.String()
}
