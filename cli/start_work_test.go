package cli

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/ui/uitest"
)

// startWork are calls that build something costly (a pattern compiled, a
// template parsed, a checksum table made). Written at package level they
// run before main on every start, whether or not the run needs them: the
// app's first frame came 1.3 times later than an empty Bubble Tea
// program's until they were made at first use (domain/lazy).
var startWork = map[string][]string{
	"regexp":        {"MustCompile", "Compile"},
	"text/template": {"Must"},
	"html/template": {"Must"},
	"hash/crc32":    {"MakeTable"},
}

// Package-level values of the packages the binary links build nothing
// costly at start: the calls in startWork sit inside a function (a
// lazy.Value's New, a constructor). Test helpers may.
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
						t.Errorf("%s: built before main on every start; make it at first use (domain/lazy)", fset.Position(at))
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

// initAllocationAllowed are cardterm packages whose initialisation may
// allocate, each with the reason. Keep it empty: a package value built
// at start is built on every run, `cardterm --version` included.
var initAllocationAllowed = map[string]string{}

// Each cardterm package's initialisation allocates nothing: the Go runtime
// runs it before main on every start, so whatever a package value needs is
// made at first use (domain/lazy) or laid out by the compiler (constants,
// slice and struct literals). The binary reports each package's init work
// under GODEBUG=inittrace=1; its time is noisy, so bytes are asserted.
func TestNoPackageAllocatesBeforeMain(t *testing.T) {
	binary := filepath.Join(t.TempDir(), "cardterm")
	if out, err := exec.Command("go", "build", "-o", binary, "cardterm").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(binary, "--version")
	cmd.Env = append(append(os.Environ(), uitest.TestEnv(t)...), "GODEBUG=inittrace=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("cardterm --version: %v\n%s", err, stderr.String())
	}
	traces := parseInitTrace(t, stderr.String())
	if len(traces) == 0 {
		t.Fatalf("inittrace named no package; stderr:\n%s", stderr.String())
	}
	for _, trace := range traces {
		if !strings.HasPrefix(trace.pkg, "cardterm/") && trace.pkg != "cardterm" {
			continue
		}
		if trace.bytes == 0 {
			continue
		}
		if reason, ok := initAllocationAllowed[trace.pkg]; ok {
			t.Logf("%s allocates %d bytes before main (allowed: %s)", trace.pkg, trace.bytes, reason)
			continue
		}
		t.Errorf("%s allocates %d bytes in %d allocations before main on every start; make its package values at first use (domain/lazy) or constant",
			trace.pkg, trace.bytes, trace.allocs)
	}
}

// initTrace is one package's line of GODEBUG=inittrace=1.
type initTrace struct {
	pkg           string
	bytes, allocs int
}

// parseInitTrace reads the lines the runtime writes for inittrace:
// "init PKG @T ms, T ms clock, N bytes, M allocs".
func parseInitTrace(t *testing.T, stderr string) []initTrace {
	t.Helper()
	var traces []initTrace
	for line := range strings.Lines(stderr) {
		if !strings.HasPrefix(line, "init ") {
			continue
		}
		var trace initTrace
		var at, clock float64
		if _, err := fmt.Sscanf(line, "init %s @%g ms, %g ms clock, %d bytes, %d allocs", &trace.pkg, &at, &clock, &trace.bytes, &trace.allocs); err != nil {
			t.Fatalf("cannot read the inittrace line %q: %v", line, err)
		}
		traces = append(traces, trace)
	}
	return traces
}
