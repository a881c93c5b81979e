package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// startWork are calls that build something costly (a pattern compiled, a
// template parsed, a checksum table made). Written at package level they
// run before main on every start, whether or not the run needs them: the
// app's first frame came 1.3 times later than an empty Bubble Tea
// program's until they were made at first use (sync.OnceValue).
var startWork = map[string][]string{
	"regexp":        {"MustCompile", "Compile"},
	"text/template": {"Must"},
	"html/template": {"Must"},
	"hash/crc32":    {"MakeTable"},
}

// Package-level values of the packages the binary links build nothing
// costly at start: the calls in startWork sit inside a function (a
// sync.OnceValue, a constructor). Test helpers may.
func TestNoCostlyWorkBeforeMain(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "cardterm").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	linked := map[string]bool{}
	for _, path := range strings.Fields(string(out)) {
		linked[path] = true
	}
	for _, p := range modulePackages(t) {
		if !linked[p.ImportPath] {
			continue
		}
		fset := token.NewFileSet()
		for _, name := range p.GoFiles {
			file, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			names := importNames(file)
			for _, decl := range file.Decls {
				if gen, ok := decl.(*ast.GenDecl); ok && gen.Tok == token.VAR {
					if at := startCall(gen, names); at != token.NoPos {
						t.Errorf("%s: built before main on every start; make it at first use (sync.OnceValue)", fset.Position(at))
					}
				}
			}
		}
	}
}

// importNames maps each import's local name to its path.
func importNames(file *ast.File) map[string]string {
	names := map[string]string{}
	for _, spec := range file.Imports {
		path := spec.Path.Value[1 : len(spec.Path.Value)-1]
		name := filepath.Base(path)
		if spec.Name != nil {
			name = spec.Name.Name
		}
		names[name] = path
	}
	return names
}

// startCall is where a var declaration calls one of startWork outside a
// function literal, or NoPos.
func startCall(decl *ast.GenDecl, names map[string]string) token.Pos {
	at := token.NoPos
	ast.Inspect(decl, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs when called, not at start
		case *ast.SelectorExpr:
			if pkg, ok := n.X.(*ast.Ident); ok && at == token.NoPos {
				for _, fn := range startWork[names[pkg.Name]] {
					if n.Sel.Name == fn {
						at = n.Pos()
					}
				}
			}
		}
		return true
	})
	return at
}
