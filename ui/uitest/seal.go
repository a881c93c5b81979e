package uitest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The tests are sealed from the machine they run on: a developer's
// profile, exported CARDTERM_* settings, proxy or browser must never reach
// the app under test, which would then talk to a real gateway or open a
// real browser. Main seals the whole test process before any test runs;
// TestEnv gives each test that runs the binary folders of its own.

// callerSettings are the variables of the caller's environment a test
// never sees, besides every CARDTERM_* one: where requests would go
// (proxies), what would be opened (BROWSER), how output is coloured, and
// the session bus behind the OS keyring.
var callerSettings = []string{
	"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
	"http_proxy", "https_proxy", "all_proxy", "no_proxy",
	"BROWSER", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "COLORFGBG",
	"DBUS_SESSION_BUS_ADDRESS",
	"XDG_CONFIG_DIRS", "XDG_DATA_DIRS", "XDG_RUNTIME_DIR",
}

// NoKeyring points the OS keyring's session bus at nothing, so no test
// reads or writes the developer's keyring.
const NoKeyring = "DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/cardterm-test-bus"

// Seal removes the caller's settings from the test process's environment
// and points HOME and the XDG folders at a fresh temporary folder
// (domain/appdirs reads them on each call); remove deletes that folder.
func Seal() (remove func(), err error) {
	if err := keepGoFolders(); err != nil {
		return nil, err
	}
	for _, entry := range os.Environ() {
		name, _, _ := strings.Cut(entry, "=")
		// CARDTERM_TEST_* are a test's messages to its own binary run
		// as a child (a stand-in browser), never a developer's setting.
		if strings.HasPrefix(name, "CARDTERM_") && !strings.HasPrefix(name, "CARDTERM_TEST_") {
			if err := os.Unsetenv(name); err != nil {
				return nil, err
			}
		}
	}
	for _, name := range callerSettings {
		if err := os.Unsetenv(name); err != nil {
			return nil, err
		}
	}
	home, err := os.MkdirTemp("", "cardterm-test-home-")
	if err != nil {
		return nil, err
	}
	for _, entry := range append(folders(home), NoKeyring) {
		name, value, _ := strings.Cut(entry, "=")
		if err := os.Setenv(name, value); err != nil {
			return nil, err
		}
	}
	return func() { _ = os.RemoveAll(home) }, nil
}

// keepGoFolders names Go's own build cache, module cache and settings
// where they are now, so that moving HOME and XDG_CACHE_HOME does not send
// the go command the tests run (building the binary) to empty ones.
func keepGoFolders() error {
	cache, err := os.UserCacheDir()
	if err != nil {
		return err
	}
	config, err := os.UserConfigDir()
	if err != nil {
		return err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return err
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = filepath.Join(home, "go")
	}
	defaults := []struct{ name, value string }{
		{"GOCACHE", filepath.Join(cache, "go-build")},
		{"GOPATH", gopath},
		{"GOMODCACHE", filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod")},
		{"GOENV", filepath.Join(config, "go", "env")},
	}
	for _, d := range defaults {
		if os.Getenv(d.name) != "" {
			continue
		}
		if err := os.Setenv(d.name, d.value); err != nil {
			return err
		}
	}
	return nil
}

// Main seals the test process (Seal), runs the tests and exits with their
// status: the TestMain of every package whose tests run the app.
func Main(m *testing.M) {
	remove, err := Seal()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sealing the tests from this machine:", err)
		os.Exit(1)
	}
	code := m.Run()
	remove()
	os.Exit(code)
}

// folders are HOME and the four XDG folders under root.
func folders(root string) []string {
	return []string{
		"HOME=" + root,
		"XDG_CONFIG_HOME=" + filepath.Join(root, "config"),
		"XDG_STATE_HOME=" + filepath.Join(root, "state"),
		"XDG_DATA_HOME=" + filepath.Join(root, "data"),
		"XDG_CACHE_HOME=" + filepath.Join(root, "cache"),
	}
}

// testFolders keeps each test's folders, so that every run of the binary
// in one test (a profile added, then the app started) shares them.
var testFolders sync.Map // testing.TB → []string

// TestEnv is the environment a test adds for the binary it runs: its own
// HOME and XDG config, state, data and cache folders, the same for every
// call in one test, and no keyring. Entries the test appends after these
// win (exec and tmux keep the last value of a name).
func TestEnv(t testing.TB) []string {
	t.Helper()
	if env, ok := testFolders.Load(t); ok {
		return env.([]string)
	}
	env := append(folders(t.TempDir()), NoKeyring)
	testFolders.Store(t, env)
	t.Cleanup(func() { testFolders.Delete(t) })
	return env
}
