package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
)

// With 100,000 whitelist entries loaded, 200 keys pressed and a filter,
// settled: whitelistAnonBudget bounds the memory the app allocated
// (RssAnon: the heap, the stacks, the runtime), which is what the list
// costs; whitelistRSSBudget bounds all it holds, the binary's code pages
// (RssFile, about 20 MB, and growing with every command the binary has)
// included.
const (
	whitelistAnonBudget = 36 << 20
	whitelistRSSBudget  = 56 << 20
)

// The real app in a terminal, measured from outside (/proc/PID/status):
// 100,000 whitelist entries (the sandbox runs in the test process, so its
// own records are not counted), loaded, 200 key presses and a quick
// filter, then settled: VmRSS within whitelistRSSBudget.
func TestWhitelist100kResidentMemoryInTheTerminal(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	if _, err := sb.Server.SeedWhitelist("alice@demo.test", "usdc", 100_000); err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=" + sandbox.DemoSecretKey, "CARDTERM_ALERTS=false"},
		"--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox")
	tm.waitFor("Sign in to the Card and Wallet Gateway")
	tm.signInWithForm("alice@demo.test", "demo-pass")
	tm.waitFor("Alice", "VERIFIED")
	tm.open("Whitelist")
	tm.waitFor("100,002 approved withdrawal addresses")
	pid := tm.panePID()
	loaded := settledRSS(t, pid)
	loadedAnon := statusKB(t, pid, "RssAnon:")
	for i := range 200 {
		key := "j"
		if i%4 == 3 {
			key = "k"
		}
		tm.send(key)
	}
	keys := settledRSS(t, pid)
	status, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "Rss") {
			t.Log(line)
		}
	}
	t.Logf("VmRSS settled after 200 keys: %.1f MB", float64(keys)/(1<<20))
	tm.send("/")
	tm.typeText("5eed0999")
	tm.send("Enter")
	tm.waitFor("0x000000000000000000000000000000005eed0999")
	after := settledRSS(t, pid)
	afterAnon := statusKB(t, pid, "RssAnon:")
	t.Logf("VmRSS settled: %.1f MB after the load, %.1f MB after 200 keys and a filter (budget %d MB)",
		float64(loaded)/(1<<20), float64(after)/(1<<20), whitelistRSSBudget>>20)
	t.Logf("RssAnon: %.1f MB after the load, %.1f MB after keys and a filter (budget %d MB)",
		float64(loadedAnon)/(1<<20), float64(afterAnon)/(1<<20), whitelistAnonBudget>>20)
	if afterAnon > whitelistAnonBudget || loadedAnon > whitelistAnonBudget {
		t.Fatalf("allocated memory %.1f MB after the load, %.1f MB after keys and a filter: over %d MB",
			float64(loadedAnon)/(1<<20), float64(afterAnon)/(1<<20), whitelistAnonBudget>>20)
	}
	if after > whitelistRSSBudget || loaded > whitelistRSSBudget {
		t.Fatalf("resident memory %.1f MB after the load, %.1f MB after keys and a filter: over %d MB",
			float64(loaded)/(1<<20), float64(after)/(1<<20), whitelistRSSBudget>>20)
	}
}

// panePID is the process the session runs (the app).
func (tm *tmuxTerm) panePID() int {
	tm.t.Helper()
	out, err := exec.Command("tmux", "-S", tm.socket, "display-message", "-p", "#{pane_pid}").Output()
	pid, convErr := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil || convErr != nil {
		tm.t.Fatalf("no pane pid: %v %v %q", err, convErr, out)
	}
	return pid
}

// settledRSS waits until the process's VmRSS stops falling (three reads
// half a second apart within 1%, at most e2eWait) and returns it.
func settledRSS(t *testing.T, pid int) uint64 {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	last, steady := uint64(0), 0
	for time.Now().Before(deadline) {
		rss := processRSS(t, pid)
		if last > 0 && rss <= last+last/100 && rss+last/100 >= last {
			steady++
		} else {
			steady = 0
		}
		last = rss
		if steady == 3 {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	return last
}

// processRSS is VmRSS of /proc/PID/status in bytes.
func processRSS(t *testing.T, pid int) uint64 {
	t.Helper()
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if value, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// statusKB is a field of /proc/PID/status in bytes (its value is in kB).
func statusKB(t *testing.T, pid int, field string) int {
	t.Helper()
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatalf("%s %q: %v", field, rest, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}
