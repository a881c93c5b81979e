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
// frame's text arrives. One op is one start of each, in turn, so that a
// change of load on the machine weighs on all alike; the metrics are
// each one's median and their ratio. A third program, emptytea linked
// with every package cardterm links, says how much of the ratio those
// packages take before main, whatever cardterm does after it.
//
// All are timed as built: a binary installed and paged in by exec starts
// the same (docs/performance.md), while a copy just written in one write
// starts quicker for a while, and more so the larger the binary, which
// flattered cardterm.
//
//	go test ./e2e -run '^$' -bench FirstFrame -benchtime 60x
//
// docs/performance.md keeps the figures.

var (
	emptyTeaOnce sync.Once
	emptyTea     string
	emptyLinked  string
	emptyTeaErr  error
)

// emptyTeaBinaries builds the yardstick once, and once more with every
// package cardterm links (-tags linked, testdata/emptytea/linked.go).
func emptyTeaBinaries(b *testing.B) (yardstick, linked string) {
	emptyTeaOnce.Do(func() {
		dir := filepath.Dir(binary)
		emptyTea, emptyLinked = filepath.Join(dir, "emptytea"), filepath.Join(dir, "emptytea-linked")
		for _, build := range []*exec.Cmd{
			exec.Command("go", "build", "-o", emptyTea, "./testdata/emptytea"),
			exec.Command("go", "build", "-tags", "linked", "-o", emptyLinked, "./testdata/emptytea"),
		} {
			build.Stderr = os.Stderr
			if emptyTeaErr = build.Run(); emptyTeaErr != nil {
				return
			}
		}
	})
	if emptyTeaErr != nil {
		b.Fatal(emptyTeaErr)
	}
	return emptyTea, emptyLinked
}

func BenchmarkFirstFrame(b *testing.B) {
	yardstick, linked := emptyTeaBinaries(b)
	var emptyTeaTimes, linkedTimes, cardtermTimes []time.Duration
	for b.Loop() {
		emptyTeaTimes = append(emptyTeaTimes, firstFrame(b, yardstick, "first frame"))
		linkedTimes = append(linkedTimes, firstFrame(b, linked, "first frame"))
		cardtermTimes = append(cardtermTimes, firstFrame(b, binary, "Sign in"))
	}
	emptyTeaMedian, linkedMedian, cardtermMedian := median(emptyTeaTimes), median(linkedTimes), median(cardtermTimes)
	ratio := func(d time.Duration) float64 { return float64(d) / float64(emptyTeaMedian) }
	b.ReportMetric(float64(emptyTeaMedian.Microseconds())/1000, "emptytea-ms")
	b.ReportMetric(float64(cardtermMedian.Microseconds())/1000, "cardterm-ms")
	b.ReportMetric(ratio(cardtermMedian), "ratio")
	b.ReportMetric(ratio(linkedMedian), "linked-ratio")
	b.Logf("medians of %d starts each: emptytea %s, emptytea linked as cardterm %s (%.3f×), cardterm %s (%.3f×)",
		len(cardtermTimes), emptyTeaMedian, linkedMedian, ratio(linkedMedian), cardtermMedian, ratio(cardtermMedian))
}

// median is the middle of times (sorted in place).
func median(times []time.Duration) time.Duration {
	slices.Sort(times)
	return times[len(times)/2]
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
