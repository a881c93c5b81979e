package whitelist

import (
	"bufio"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// The memory 100,000 whitelist entries take, measured in a process of its
// own: the parent serves the sandbox (its seeded records are not counted)
// and runs this test binary again as a child that signs in, loads the
// whitelist over HTTP into the screen, collects (runtime.GC and
// debug.FreeOSMemory) and reports its heap and its resident memory (VmRSS
// and the peak VmHWM from /proc/self/status).

// memoryChildEnv names the sandbox the child loads from; without it the
// child test returns at once.
const memoryChildEnv = "CARDTERM_TEST_WHITELIST_MEMORY_CHILD"

// rssBudget is the resident memory the process may have with 100,000
// entries loaded (60 MB; about 40 MB measured).
const rssBudget = 60_000_000

// memoryFigures is what the child reports, in bytes.
type memoryFigures struct {
	heap, rss, hwm uint64
	entries        int
}

// TestWhitelistMemoryChild is the child's side: it runs only when
// memoryChildEnv is set and prints one line of figures.
func TestWhitelistMemoryChild(t *testing.T) {
	url := os.Getenv(memoryChildEnv)
	if url == "" {
		return
	}
	client := apiclient.New(apiclient.Config{BaseURL: url, ClientKey: sandbox.DemoClientKey, Timeout: time.Minute})
	if _, err := client.Login(context.Background(), "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	st := theme.New(true, false)
	w := New(screenkit.Deps{Styles: &st, Requests: ui.NewRequests(), Client: client})
	w.SetSize(120, 40)
	loadWhole(t, w)
	_ = w.View()
	runtime.GC()
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	rss, hwm := procStatus("VmRSS"), procStatus("VmHWM")
	fmt.Printf("MEMORY entries=%d heap=%d rss=%d hwm=%d\n", w.table.Len(), m.HeapAlloc, rss, hwm)
	runtime.KeepAlive(w)
}

// loadWhole runs the screen's load to its end, as the program would: the
// request on a goroutine, the receiver's messages into Update.
func loadWhole(t testing.TB, w *Screen) {
	cmds, ok := w.Enter()().(tea.BatchMsg)
	if !ok || len(cmds) != 2 {
		t.Fatal("the load did not start")
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmds[0]() }()
	for next := cmds[1]; next != nil; {
		msg := next()
		arrived, ok := msg.(entriesArrived)
		if !ok {
			t.Fatalf("%T while loading", msg)
		}
		_, next = w.Update(arrived)
		if arrived.Done {
			if arrived.Err != nil {
				t.Fatal(arrived.Err)
			}
			break
		}
	}
	<-done
}

// procStatus is a field of /proc/self/status in bytes (0 where there is no
// such file).
func procStatus(field string) uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		return kb << 10
	}
	return 0
}

// measureWhitelistMemory serves a sandbox with 100,000 more entries for
// alice and runs the child against it.
func measureWhitelistMemory(t testing.TB) memoryFigures {
	srv := sandbox.New(sandbox.Options{})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	if _, err := srv.SeedWhitelist("alice@demo.test", "usdc", 100_000); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWhitelistMemoryChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), memoryChildEnv+"="+hs.URL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child failed: %v\n%s", err, out)
	}
	var f memoryFigures
	for _, line := range strings.Split(string(out), "\n") {
		if _, err := fmt.Sscanf(line, "MEMORY entries=%d heap=%d rss=%d hwm=%d", &f.entries, &f.heap, &f.rss, &f.hwm); err == nil {
			return f
		}
	}
	t.Fatalf("the child said nothing of its memory:\n%s", out)
	return f
}

// 100,000 entries (and the sandbox's 2) loaded over HTTP into the screen
// keep the process within rssBudget of resident memory.
func TestWhitelist100kResidentMemory(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Log("no /proc/self/status here: resident memory is measured on Linux")
		return
	}
	f := measureWhitelistMemory(t)
	t.Logf("100,002 entries loaded: heap %.1f MB, resident %.1f MB, resident at its peak %.1f MB",
		float64(f.heap)/1e6, float64(f.rss)/1e6, float64(f.hwm)/1e6)
	if f.entries != 100_002 {
		t.Fatalf("%d entries loaded", f.entries)
	}
	if f.heap > heldBudget {
		t.Fatalf("heap %.1f MB, over the %d MiB budget", float64(f.heap)/1e6, heldBudget>>20)
	}
	if f.rss > rssBudget && !raceDetector {
		t.Fatalf("resident memory %.1f MB, over the %d MB budget", float64(f.rss)/1e6, rssBudget/1_000_000)
	}
}

// BenchmarkWhitelistMemory100k reports the child's figures with 100,000
// entries loaded: heap-MB, rss-MB and the peak hwm-MB.
func BenchmarkWhitelistMemory100k(b *testing.B) {
	var f memoryFigures
	for b.Loop() {
		f = measureWhitelistMemory(b)
	}
	b.ReportMetric(float64(f.heap)/1e6, "heap-MB")
	b.ReportMetric(float64(f.rss)/1e6, "rss-MB")
	b.ReportMetric(float64(f.hwm)/1e6, "hwm-MB")
}
