package screens_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The team's hard limits, held here so they stay true: no code file
// (tests included) over 400 lines in ui/ or screens/, and no function
// there over 80 lines. A file or function past them is split by concern.
const (
	maxFileLines     = 400
	maxFunctionLines = 80
)

// TestNoFileOrFunctionTooLong lists every file and function in ui/ and
// screens/ past the limits.
func TestNoFileOrFunctionTooLong(t *testing.T) {
	for _, root := range []string{"../ui", "."} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			checkSizes(t, path)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// checkSizes reports path when it is too long, and each of its functions
// that is.
func checkSizes(t *testing.T, path string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(src), "\n"); lines > maxFileLines {
		t.Errorf("%s has %d lines, over %d: split it by concern", path, lines, maxFileLines)
	}
	files := token.NewFileSet()
	parsed, err := parser.ParseFile(files, path, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(parsed, func(n ast.Node) bool {
		var body *ast.BlockStmt
		name := "a function literal"
		switch fn := n.(type) {
		case *ast.FuncDecl:
			body, name = fn.Body, fn.Name.Name
		case *ast.FuncLit:
			body = fn.Body
		}
		if body == nil {
			return true
		}
		start, end := files.Position(n.Pos()), files.Position(body.End())
		if lines := end.Line - start.Line + 1; lines > maxFunctionLines {
			t.Errorf("%s:%d: %s has %d lines, over %d", path, start.Line, name, lines, maxFunctionLines)
		}
		return true
	})
}
