package e2e

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cardterm/ui/uitest"
)

// runnableMark stands alone on the line before a ```sh block of README.md
// or docs/*.md whose every line must work as written on the embedded
// sandbox (an HTML comment: invisible where the Markdown is read).
const runnableMark = "<!-- runnable -->"

// example is one runnable block: where it is and its shell lines.
type example struct {
	where string
	lines []string
}

// runnableExamples reads the runnable blocks of the README and the docs.
func runnableExamples(t *testing.T) []example {
	t.Helper()
	files, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"../README.md"}, files...)
	var examples []example
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		scanner := bufio.NewScanner(f)
		n, marked := 0, false
		var current *example
		for scanner.Scan() {
			n++
			line := scanner.Text()
			switch {
			case current != nil && strings.HasPrefix(line, "```"):
				examples = append(examples, *current)
				current = nil
			case current != nil:
				current.lines = append(current.lines, line)
			case marked && strings.HasPrefix(line, "```sh"):
				current = &example{where: strings.TrimPrefix(file, "../") + ":" + strconv.Itoa(n)}
			}
			marked = strings.TrimSpace(line) == runnableMark
		}
		_ = f.Close()
		if current != nil {
			t.Fatalf("%s: a runnable block is not closed", current.where)
		}
	}
	return examples
}

// TestRunnableExamplesInTheDocs runs every shell example of the README and
// docs/ marked runnable, line by line as a reader would paste it, with the
// binary as `cardterm` on the PATH and the embedded sandbox as the
// gateway: each must exit 0. The docs keep at least a few, so losing the
// marks fails here.
func TestRunnableExamplesInTheDocs(t *testing.T) {
	examples := runnableExamples(t)
	if len(examples) < 3 {
		t.Fatalf("found %d runnable examples in README.md and docs/; the docs keep at least 3", len(examples))
	}
	path := filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, ex := range examples {
		t.Run(ex.where, func(t *testing.T) {
			for _, line := range ex.lines {
				if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
					continue
				}
				ctx, cancel := context.WithTimeout(t.Context(), e2eWait)
				cmd := exec.CommandContext(ctx, "sh", "-ec", line)
				cmd.Dir = t.TempDir()
				cmd.Env = append(append(os.Environ(), uitest.TestEnv(t)...), "PATH="+path)
				out, err := cmd.CombinedOutput()
				cancel()
				if err != nil {
					t.Errorf("%s: %q failed (%v):\n%s", ex.where, line, err, out)
				}
			}
		})
	}
}
