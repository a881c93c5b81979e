package cli

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// listedPackage is what `go list -json` says of one package of ours.
type listedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
}

// modulePackages lists every package of the module with `go list`, the
// same listing a newcomer would read.
func modulePackages(t *testing.T) []listedPackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "cardterm/...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// serverCalls are the calls that make a package listen or serve.
var serverCalls = map[string][]string{
	"net":               {"Listen", "ListenTCP", "ListenUnix", "ListenPacket", "ListenUDP", "ListenConfig", "FileListener", "ListenMulticastUDP", "ListenUnixgram", "ListenIP"},
	"crypto/tls":        {"Listen", "NewListener"},
	"net/http":          {"Server", "Serve", "ServeTLS", "ListenAndServe", "ListenAndServeTLS", "NewServeMux", "ServeMux"},
	"net/http/httptest": {"NewServer", "NewUnstartedServer", "Server"},
}

// serves reports the first place where a package's non-test files listen
// or serve, or "".
func serves(t *testing.T, p listedPackage) string {
	t.Helper()
	fset := token.NewFileSet()
	for _, name := range p.GoFiles {
		file, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		local := map[string]string{} // the name a file gives an import → its path
		for _, imp := range file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if _, ok := serverCalls[path]; !ok {
				continue
			}
			as := filepath.Base(path)
			if imp.Name != nil {
				as = imp.Name.Name
			}
			local[as] = path
		}
		found := ""
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || found != "" {
				return found == ""
			}
			if x, ok := sel.X.(*ast.Ident); ok && slices.Contains(serverCalls[local[x.Name]], sel.Sel.Name) {
				found = fset.Position(sel.Pos()).String() + ": " + local[x.Name] + "." + sel.Sel.Name
			}
			return true
		})
		if found != "" {
			return found
		}
	}
	return ""
}

// TestRoomsByRole keeps each folder to its role: the API client neither
// listens nor serves (servers live under sandbox/), and the sandbox does,
// so the check cannot pass by finding nothing.
func TestRoomsByRole(t *testing.T) {
	pkgs := modulePackages(t)
	sandboxServes := false
	for _, p := range pkgs {
		where := serves(t, p)
		switch {
		case p.ImportPath == "cardterm/apiclient" || strings.HasPrefix(p.ImportPath, "cardterm/apiclient/"):
			if where != "" {
				t.Errorf("%s is the client's room but serves: %s", p.ImportPath, where)
			}
			for _, other := range importsOutsideClient(p) {
				t.Errorf("%s imports %s: the client imports nothing of ours, so it cannot serve through another room", p.ImportPath, other)
			}
			if strings.Contains(p.ImportPath, "sandbox") || strings.Contains(p.ImportPath, "receiver") {
				t.Errorf("%s: servers live under sandbox/, not apiclient/", p.ImportPath)
			}
		case p.ImportPath == "cardterm/sandbox":
			sandboxServes = where != ""
		}
	}
	if !sandboxServes {
		t.Error("found no server in cardterm/sandbox: the check above would find none anywhere")
	}
}

// importsOutsideClient is what p's non-test files import of this module
// from outside apiclient/.
func importsOutsideClient(p listedPackage) []string {
	var outside []string
	for _, path := range p.Imports {
		ours := path == "cardterm" || strings.HasPrefix(path, "cardterm/")
		if ours && path != "cardterm/apiclient" && !strings.HasPrefix(path, "cardterm/apiclient/") {
			outside = append(outside, path)
		}
	}
	return outside
}

// Each way to listen is found, under any import name, and dialling is not
// taken for serving.
func TestServesFindsEveryWayToListen(t *testing.T) {
	for file, want := range map[string]string{
		"listen_config.go": "net.ListenConfig",
		"listen_tls.go":    "crypto/tls.Listen",
		"serve_renamed.go": "net/http.ListenAndServe",
		"dial.go":          "",
	} {
		got := serves(t, listedPackage{Dir: filepath.Join("testdata", "rooms"), GoFiles: []string{file}})
		if (want == "") != (got == "") || !strings.HasSuffix(got, want) {
			t.Errorf("%s: serves = %q, want %q", file, got, want)
		}
	}
}

// A package of the client's room that imports another room of ours is
// refused, as serving through the sandbox would otherwise pass.
func TestTheClientImportsNothingOfOurs(t *testing.T) {
	p := listedPackage{ImportPath: "cardterm/apiclient/local", Imports: []string{
		"cardterm/apiclient", "cardterm/apiclient/curlcmd", "cardterm/sandbox", "cardterm/domain/ledger", "net/http", "cardtermx/y",
	}}
	got := importsOutsideClient(p)
	if want := []string{"cardterm/sandbox", "cardterm/domain/ledger"}; !slices.Equal(got, want) {
		t.Errorf("importsOutsideClient = %q, want %q", got, want)
	}
}

// cliMayUseFromScreens is what the command line may take from screen
// packages: the wiring that builds and runs the app. Domain code (money,
// statements, the action log, cases) lives in domain/, below both.
var cliMayUseFromScreens = map[string][]string{
	"cardterm/screens":           {"All", "SignIn"},
	"cardterm/screens/shell":     {"New", "Config", "Gateway", "SwitchTo"},
	"cardterm/screens/support":   {"New", "Options", "Screen", "DemoUser"},
	"cardterm/screens/screenkit": {"Deps", "Alerts", "DemoHint"},
}

// TestCommandLineTakesNoDomainCodeFromScreens follows every name cli's
// code takes from a screen package: only the app's wiring may come from
// there.
func TestCommandLineTakesNoDomainCodeFromScreens(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		local := map[string]string{}
		for _, imp := range file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(path, "cardterm/screens") {
				continue
			}
			if _, ok := cliMayUseFromScreens[path]; !ok {
				t.Errorf("%s imports %s: the command line takes no screen package but the app's wiring", name, path)
				continue
			}
			as := filepath.Base(path)
			if imp.Name != nil {
				as = imp.Name.Name
			}
			local[as] = path
		}
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok || local[x.Name] == "" {
				return true
			}
			if path := local[x.Name]; !slices.Contains(cliMayUseFromScreens[path], sel.Sel.Name) {
				t.Errorf("%s: %s.%s comes from a screen package; domain code belongs in domain/", fset.Position(sel.Pos()), path, sel.Sel.Name)
			}
			return true
		})
	}
}

// TestNoCodeFileOver400Lines holds every Go file of the module, tests
// included, to 400 lines: a file past it is split by concern. (The
// functions of ui/ and screens/ are held to 80 lines in screens/.)
func TestNoCodeFileOver400Lines(t *testing.T) {
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "dist" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if lines := strings.Count(string(src), "\n"); lines > 400 {
			t.Errorf("%s has %d lines, over 400: split it by concern", path, lines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
