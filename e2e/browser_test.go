package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The browsers the app opens in these tests. For an OAuth sign-in (the
// user's own, or a customer's approving a support session) it is the test
// binary itself: BROWSER points to a script that runs it again with
// CARDTERM_TEST_BROWSER=1, and TestMain then plays the user in the browser
// (playBrowser) instead of running tests. Elsewhere a shell script only
// records the URLs it is given (browserRecorder).

// playBrowser is the stand-in browser's whole run, its settings from the
// environment browserEnvAs gives the app: it follows the sign-in link in
// its last argument and returns its exit status.
func playBrowser() int {
	user := os.Getenv("CARDTERM_TEST_BROWSER_USER")
	if user == "" {
		user = "alice@demo.test"
	}
	return testBrowser(os.Args[len(os.Args)-1], user, os.Getenv("CARDTERM_TEST_BROWSER_OUT"), os.Getenv("CARDTERM_TEST_BROWSER_MODE"))
}

// testBrowser follows the sign-in link: it records the link (url), opens
// the hosted page, posts user's credentials and, in loopback mode, follows
// the redirect to cardterm's callback (callback: its host and page); in
// phone mode it records the code the page shows (code). A failure is
// written to error.
func testBrowser(link, user, out, mode string) int {
	save := func(name, data string) {
		tmp := filepath.Join(out, name+".tmp")
		_ = os.WriteFile(tmp, []byte(data), 0o600)
		_ = os.Rename(tmp, filepath.Join(out, name))
	}
	fail := func(err error) int { save("error", err.Error()); return 1 }
	save("url", link)
	hc := &http.Client{Timeout: 10 * time.Second}
	resp, err := hc.Get(link)
	if err != nil {
		return fail(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="session" value="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		return fail(fmt.Errorf("no sign-in form at %s:\n%s", link, page))
	}
	u, _ := url.Parse(link)
	form := url.Values{"session": {string(m[1])}, "username": {user}, "password": {"demo-pass"}}
	if mode == "phone" {
		form.Set("device", "phone")
	}
	resp, err = hc.PostForm(u.Scheme+"://"+u.Host+"/oauth/sign-in", form) // follows the redirect to the loopback
	if err != nil {
		return fail(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if mode == "phone" {
		c := regexp.MustCompile(`id="code">([A-Z0-9]{5}-[A-Z0-9]{5})<`).FindSubmatch(body)
		if c == nil {
			return fail(fmt.Errorf("no code on the page:\n%s", body))
		}
		save("code", string(c[1]))
		return 0
	}
	save("callback", resp.Request.URL.Host+"\n"+string(body))
	return 0
}

// browserEnv is browserEnvAs for alice, the demo account the sign-in form
// offers first.
func browserEnv(t *testing.T, mode string) ([]string, string) {
	t.Helper()
	return browserEnvAs(t, "alice@demo.test", mode)
}

// browserEnvAs writes a BROWSER script into a temp dir that runs this test
// binary as the stand-in browser signing in as user in mode ("loopback"
// or "phone"), and returns the environment for startTerm and the dir the
// browser reports into (waitFile).
func browserEnvAs(t *testing.T, user, mode string) ([]string, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "browser")
	body := fmt.Sprintf("#!/bin/sh\nCARDTERM_TEST_BROWSER=1 exec '%s' \"$@\"\n", exe)
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return []string{"BROWSER=" + script, "CARDTERM_TEST_BROWSER_USER=" + user,
		"CARDTERM_TEST_BROWSER_OUT=" + dir, "CARDTERM_TEST_BROWSER_MODE=" + mode}, dir
}

// waitFile waits for the browser to write name and returns its content.
func waitFile(t *testing.T, dir, name string) string {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			return string(b)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "error")); err == nil {
			t.Fatalf("the test browser failed: %s", b)
		}
		time.Sleep(40 * time.Millisecond)
	}
	t.Fatalf("the test browser wrote no %s", name)
	return ""
}

// startOAuth starts the app with a $BROWSER that plays the user's part of
// an OAuth sign-in in mode (browserEnv) and presses ctrl+o on the sign-in
// form; dir holds what that browser saw.

// browserRecorder writes a $BROWSER script that appends the URL it is given
// to a file, and returns the env entry and a function reading the URLs.
func browserRecorder(t *testing.T) (string, func() []string) {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "opened.txt")
	script := filepath.Join(dir, "browser.sh")
	body := "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '" + log + "'\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return "BROWSER=" + script, func() []string {
		b, _ := os.ReadFile(log)
		return strings.Fields(string(b))
	}
}

// waitOpened waits until the browser script has recorded n URLs.
func waitOpened(t *testing.T, opened func() []string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		if got := opened(); len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the browser was not opened %d times: %v", n, opened())
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// httpStatus fetches an http:// URL with a plain HTTP/1.0 request and
// returns the status code.
func httpStatus(t *testing.T, raw string) int {
	t.Helper()
	rest, ok := strings.CutPrefix(raw, "http://")
	if !ok {
		t.Fatalf("not an http URL: %q", raw)
	}
	host, path, _ := strings.Cut(rest, "/")
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(conn, "GET /%s HTTP/1.0\r\nHost: %s\r\n\r\n", path, host)
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var code int
	if _, err := fmt.Sscanf(line, "HTTP/1.%d %d", new(int), &code); err != nil {
		t.Fatalf("status line %q: %v", line, err)
	}
	_, _ = io.Copy(io.Discard, conn)
	return code
}
