package e2e

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"cardterm/ui/uitest"
)

// The start-up benchmark: how long from exec to the first frame on a
// terminal, for cardterm (the embedded sandbox and the sign-in screen) and
// for the smallest Bubble Tea program (e2e/testdata/emptytea), each
// started in a pseudo-terminal of 120x40 and timed until its first
// frame's text arrives. One op is one start; the log gives the medians.
//
//	go test ./e2e -run '^$' -bench FirstFrame -benchtime 30x
//
// docs/performance.md keeps the figures.

var (
	emptyTeaOnce sync.Once
	emptyTea     string
	emptyTeaErr  error
)

// emptyTeaBinary builds the yardstick once.
func emptyTeaBinary(b *testing.B) string {
	emptyTeaOnce.Do(func() {
		emptyTea = filepath.Join(filepath.Dir(binary), "emptytea")
		build := exec.Command("go", "build", "-o", emptyTea, "./testdata/emptytea")
		build.Stderr = os.Stderr
		emptyTeaErr = build.Run()
	})
	if emptyTeaErr != nil {
		b.Fatal(emptyTeaErr)
	}
	return emptyTea
}

func BenchmarkFirstFrame(b *testing.B) {
	programs := []struct {
		name, path, frame string
	}{
		{"emptytea", "", "first frame"},
		{"cardterm", binary, "Sign in"},
	}
	programs[0].path = emptyTeaBinary(b)
	for _, p := range programs {
		b.Run(p.name, func(b *testing.B) {
			times := make([]time.Duration, 0, b.N)
			for b.Loop() {
				times = append(times, firstFrame(b, p.path, p.frame))
			}
			slices.Sort(times)
			median := times[len(times)/2]
			b.ReportMetric(float64(median.Microseconds())/1000, "median-ms")
			b.Logf("%s: median %s of %d starts (fastest %s, slowest %s)", p.name, median, len(times), times[0], times[len(times)-1])
		})
	}
}

// firstFrame starts path on a pseudo-terminal and times the arrival of
// the text frame, then ends the program.
func firstFrame(b *testing.B, path, frame string) time.Duration {
	b.Helper()
	cmd := exec.Command(path)
	cmd.Env = append(os.Environ(), uitest.TestEnv(b)...)
	cmd.Env = append(cmd.Env, "TERM=xterm-256color")
	started := time.Now()
	terminal, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		terminal.Close()
	}()
	arrived := make(chan time.Duration, 1)
	go func() {
		var seen bytes.Buffer
		chunk := make([]byte, 32<<10)
		for {
			n, err := terminal.Read(chunk)
			seen.Write(chunk[:n])
			if bytes.Contains(seen.Bytes(), []byte(frame)) {
				arrived <- time.Since(started)
				_, _ = io.Copy(io.Discard, terminal)
				return
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case d := <-arrived:
		return d
	case <-time.After(20 * time.Second):
		b.Fatalf("%s drew no %q in 20 s", path, frame)
		return 0
	}
}
