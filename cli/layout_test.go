package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// commandOfFile is the command a file belongs to: cmd_sandbox_trigger.go
// belongs to sandbox, cmd_api_output.go to api; files without the cmd_
// prefix (gateway.go, lookup.go, secrets.go…) are shared concerns and
// belong to no command.
func commandOfFile(name string) string {
	rest, ok := strings.CutPrefix(name, "cmd_")
	if !ok {
		return ""
	}
	rest = strings.TrimSuffix(rest, ".go")
	command, _, _ := strings.Cut(rest, "_")
	return command
}

// TestNoCommandFileUsesAnotherCommandsHelpers keeps each command's files to
// themselves: what two commands share lives in a file of its own (the
// gateway and client factory, the look-ups, the output conventions), never
// in one command's file where the other reaches in. It parses the package
// and follows every identifier to the file that declares it.
func TestNoCommandFileUsesAnotherCommandsHelpers(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	declaredIn := map[string]string{}
	parsed := map[string]*ast.File{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed[name] = file
		for _, decl := range file.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil {
					declaredIn[decl.Name.Name] = name
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						declaredIn[spec.Name.Name] = name
					case *ast.ValueSpec:
						for _, id := range spec.Names {
							declaredIn[id.Name] = name
						}
					}
				}
			}
		}
	}
	if len(parsed) < 20 {
		t.Fatalf("parsed %d files; the test is not reading the package", len(parsed))
	}
	var crossings []string
	for name, file := range parsed {
		user := commandOfFile(name)
		if user == "" {
			continue
		}
		seen := map[string]bool{}
		ast.Inspect(file, func(node ast.Node) bool {
			id, ok := node.(*ast.Ident)
			if !ok || seen[id.Name] {
				return true
			}
			owner := commandOfFile(declaredIn[id.Name])
			if owner != "" && owner != user {
				seen[id.Name] = true
				crossings = append(crossings, name+" uses "+id.Name+" from "+declaredIn[id.Name])
			}
			return true
		})
	}
	sort.Strings(crossings)
	for _, crossing := range crossings {
		t.Error(crossing + ": move it to a file of its own that both commands use")
	}
}

// TestTheRootHoldsOnlyMain keeps the repository's front door short: the
// command line lives here in cli/, and the root has main.go alone of Go.
func TestTheRootHoldsOnlyMain(t *testing.T) {
	entries, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, entry := range entries {
		if strings.HasSuffix(entry.Name(), ".go") && entry.Name() != "main.go" {
			t.Errorf("../%s: Go code other than main.go belongs in a package, not the root", entry.Name())
		}
	}
}
