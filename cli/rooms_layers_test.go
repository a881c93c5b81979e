package cli

import (
	"slices"
	"strings"
	"testing"
)

// Layer rules over the module's imports (ARCHITECTURE.md, "Layers"),
// read from `go list` like the rest of the rooms tests. Only non-test
// files count: a screen's tests may build the app through screentest.

// screenWiring are the packages under screens/ that may import screen
// packages: the registry of screens, the app's one wiring, and the test
// harness that builds the app through it.
var screenWiring = []string{"cardterm/screens", "cardterm/screens/shell", "cardterm/screens/screentest"}

// screenOf is the screen a package under screens/ belongs to
// ("cardterm/screens/support/queue" → "support"), or "" for one that is
// no screen (the registry, screenkit, shell, screentest).
func screenOf(path string) string {
	rest, ok := strings.CutPrefix(path, "cardterm/screens/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	if name == "screenkit" || name == "shell" || name == "screentest" {
		return ""
	}
	return name
}

// crossScreenImports lists each import by which a screen package reaches
// another screen's package, or the wiring: a screen imports, of screens/,
// only screenkit and its own sub-packages (support → support/queue).
func crossScreenImports(pkgs []listedPackage) []string {
	var found []string
	for _, p := range pkgs {
		own := screenOf(p.ImportPath)
		if own == "" {
			continue
		}
		for _, imp := range p.Imports {
			other := screenOf(imp)
			if (other != "" && other != own) || slices.Contains(screenWiring, imp) {
				found = append(found, p.ImportPath+" → "+imp)
			}
		}
	}
	return found
}

// importPath is the chain of imports by which from reaches a package for
// which bad is true, or nil: from itself, then each import in turn.
func importPath(graph map[string][]string, from string, bad func(string) bool) []string {
	seen := map[string]bool{from: true}
	var walk func(p string) []string
	walk = func(p string) []string {
		if bad(p) {
			return []string{p}
		}
		for _, imp := range graph[p] {
			if seen[imp] {
				continue
			}
			seen[imp] = true
			if rest := walk(imp); rest != nil {
				return append([]string{p}, rest...)
			}
		}
		return nil
	}
	return walk(from)
}

// uiLeaks lists, for each package of ui/, the chain by which it reaches
// apiclient or a screen package, directly or through any package between.
func uiLeaks(pkgs []listedPackage) []string {
	graph := map[string][]string{}
	for _, p := range pkgs {
		graph[p.ImportPath] = p.Imports
	}
	forbidden := func(p string) bool {
		return p == "cardterm/apiclient" || strings.HasPrefix(p, "cardterm/apiclient/") || strings.HasPrefix(p, "cardterm/screens")
	}
	var found []string
	for _, p := range pkgs {
		if p.ImportPath != "cardterm/ui" && !strings.HasPrefix(p.ImportPath, "cardterm/ui/") {
			continue
		}
		if chain := importPath(graph, p.ImportPath, forbidden); chain != nil {
			found = append(found, strings.Join(chain, " → "))
		}
	}
	return found
}

// TestRoomsOfScreensAndUI holds the module to two layer rules: no screen
// imports another screen, and ui/ never reaches apiclient or a screen,
// not even through domain/.
func TestRoomsOfScreensAndUI(t *testing.T) {
	pkgs := modulePackages(t)
	screens := 0
	for _, p := range pkgs {
		if screenOf(p.ImportPath) != "" {
			screens++
		}
	}
	if screens < 10 {
		t.Fatalf("only %d screen packages found: the check would pass by finding nothing", screens)
	}
	for _, leak := range crossScreenImports(pkgs) {
		t.Errorf("a screen imports another screen: %s (what two screens share goes to screenkit, ui or domain)", leak)
	}
	for _, leak := range uiLeaks(pkgs) {
		t.Errorf("ui reaches the gateway client or a screen: %s", leak)
	}
}

// Each way to break the rules is caught: a screen importing another, or
// the wiring; ui importing apiclient itself, or through a domain package
// (as ui once did through domain/savedview); and what is allowed passes.
func TestRoomsOfScreensAndUICatchEachLeak(t *testing.T) {
	pkg := func(path string, imports ...string) listedPackage {
		return listedPackage{ImportPath: path, Imports: imports}
	}
	allowed := []listedPackage{
		pkg("cardterm/screens", "cardterm/screens/card", "cardterm/screens/orders"),
		pkg("cardterm/screens/shell", "cardterm/screens/screenkit", "cardterm/ui"),
		pkg("cardterm/screens/card", "cardterm/screens/screenkit", "cardterm/apiclient", "cardterm/ui"),
		pkg("cardterm/screens/support", "cardterm/screens/support/queue", "cardterm/screens/screenkit"),
		pkg("cardterm/screens/support/queue", "cardterm/ui", "cardterm/domain/casefile"),
		pkg("cardterm/ui", "cardterm/theme", "cardterm/ui/keymap", "cardterm/domain/savedview"),
		pkg("cardterm/ui/keymap", "cardterm/domain/fileerror"),
		pkg("cardterm/domain/savedview", "cardterm/domain/atomicfile"),
		pkg("cardterm/domain/casefile", "cardterm/apiclient"),
	}
	if got := append(crossScreenImports(allowed), uiLeaks(allowed)...); len(got) != 0 {
		t.Fatalf("allowed imports refused: %q", got)
	}
	for _, c := range []struct {
		name string
		add  listedPackage
		want string
	}{
		{"screen imports a screen", pkg("cardterm/screens/orders", "cardterm/screens/card"), "cardterm/screens/orders → cardterm/screens/card"},
		{"screen imports another's sub-package", pkg("cardterm/screens/consent", "cardterm/screens/support/queue"), "cardterm/screens/consent → cardterm/screens/support/queue"},
		{"screen imports the wiring", pkg("cardterm/screens/events", "cardterm/screens/shell"), "cardterm/screens/events → cardterm/screens/shell"},
		{"ui imports apiclient", pkg("cardterm/ui/form", "cardterm/apiclient"), "cardterm/ui/form → cardterm/apiclient"},
		{"ui reaches apiclient through domain", pkg("cardterm/ui/table", "cardterm/domain/casefile"), "cardterm/ui/table → cardterm/domain/casefile → cardterm/apiclient"},
		{"ui imports a screen", pkg("cardterm/ui/layer", "cardterm/screens/screenkit"), "cardterm/ui/layer → cardterm/screens/screenkit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pkgs := append(slices.Clone(allowed), c.add)
			got := append(crossScreenImports(pkgs), uiLeaks(pkgs)...)
			if !slices.Contains(got, c.want) {
				t.Fatalf("found %q, want %q among them", got, c.want)
			}
		})
	}
}
