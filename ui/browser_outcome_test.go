package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"cardterm/theme"
)

// writeScript writes an executable shell script and returns its path.
func writeScript(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "browser")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBrowserThatFailsIsReportedAsNotOpened(t *testing.T) {
	t.Setenv("BROWSER", "/bin/false")
	n := OpenLabeled("the sign-in page", "https://gw.example/signin?state=s3cret")().(NoticeMsg)
	if n.Notice.Tone != theme.ToneDanger || !strings.Contains(n.Notice.Text, "could not open the sign-in page") ||
		!strings.Contains(n.Notice.Text, "exited with status 1") {
		t.Fatalf("BROWSER=/bin/false: %+v", n.Notice)
	}
	if strings.Contains(n.Notice.Text, "s3cret") {
		t.Fatalf("the notice quotes the link: %q", n.Notice.Text)
	}
	// The secret pages go through the one-time loopback redirect: the same verdict.
	n = OpenSecret("card details image", "https://gw.example/details-image?token=s3cret", time.Minute)().(NoticeMsg)
	if n.Notice.Tone != theme.ToneDanger || !strings.Contains(n.Notice.Text, "exited with status 1") {
		t.Fatalf("OpenSecret with BROWSER=/bin/false: %+v", n.Notice)
	}
}

func TestBrowserFailingLateOrStayingOpenCountsAsOpened(t *testing.T) {
	short := browserVerdictWait
	browserVerdictWait = 200 * time.Millisecond
	t.Cleanup(func() { browserVerdictWait = short })
	t.Setenv("BROWSER", writeScript(t, "sleep 3; exit 1"))
	start := time.Now()
	n := OpenURL("https://gw.example/")().(NoticeMsg)
	if n.Notice.Tone != theme.ToneOK {
		t.Fatalf("a browser still running after the verdict wait: %+v", n.Notice)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the command waited %s for a browser that stays open", took)
	}
}

func TestBrowserListTriesEachCommandInTurn(t *testing.T) {
	out := filepath.Join(t.TempDir(), "opened")
	t.Setenv("BROWSER", "/bin/false:"+writeScript(t, `echo "$1" > `+out))
	n := OpenURL("https://gw.example/page")().(NoticeMsg)
	if n.Notice.Tone != theme.ToneOK {
		t.Fatalf("notice %+v", n.Notice)
	}
	if got, _ := os.ReadFile(out); strings.TrimSpace(string(got)) != "https://gw.example/page" {
		t.Fatalf("the second command got %q", got)
	}
}

func TestBrowserEnvironmentHoldsNoSecret(t *testing.T) {
	out := filepath.Join(t.TempDir(), "env")
	t.Setenv("BROWSER", writeScript(t, "env > "+out))
	secrets := map[string]string{
		"CARDTERM_SECRET_KEY":  "sk_live_very_secret",
		"CARDTERM_PASSWORD":    "hunter2-password",
		"CARDTERM_WEBHOOK_KEY": "whsec_signing_key_1234",
	}
	for name, value := range secrets {
		t.Setenv(name, value)
	}
	t.Setenv("CARDTERM_PROFILE", "acme") // not a secret: it stays
	if n := OpenURL("https://gw.example/")().(NoticeMsg); n.Notice.Tone != theme.ToneOK {
		t.Fatalf("notice %+v", n.Notice)
	}
	env, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for name, value := range secrets {
		if strings.Contains(string(env), name) || strings.Contains(string(env), value) {
			t.Errorf("the browser's environment holds %s:\n%s", name, env)
		}
	}
	if !strings.Contains(string(env), "CARDTERM_PROFILE=acme") {
		t.Errorf("the browser lost the rest of the environment:\n%s", env)
	}
	if len(SecretEnvironment) != len(secrets) {
		t.Errorf("SecretEnvironment %v: this test covers %d secrets", SecretEnvironment, len(secrets))
	}
}

func TestWithoutSecretsMatchesNamesOnly(t *testing.T) {
	got := withoutSecrets([]string{"PATH=/bin", "cardterm_password=x", "CARDTERM_SECRET_KEY=y", "CARDTERM_SECRET_KEYS=z", "NOTE=CARDTERM_PASSWORD=1"})
	want := []string{"PATH=/bin", "CARDTERM_SECRET_KEYS=z", "NOTE=CARDTERM_PASSWORD=1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestBrowserCommandsSplitAsEachSystemExpects(t *testing.T) {
	files := map[string]bool{
		`C:\Program Files\Mozilla Firefox\firefox.exe`: true,
		"/opt/My Browser/run":                          true,
	}
	isFile := func(p string) bool { return files[p] }
	for _, c := range []struct {
		env, goos string
		want      [][]string
	}{
		{"firefox --new-tab %s:chromium", "linux", [][]string{{"firefox", "--new-tab", "%s"}, {"chromium"}}},
		{"/opt/My Browser/run", "linux", [][]string{{"/opt/My Browser/run"}}},
		{"'/opt/My Browser/run' --private", "linux", [][]string{{"/opt/My Browser/run", "--private"}}},
		{`C:\Program Files\Mozilla Firefox\firefox.exe`, "windows", [][]string{{`C:\Program Files\Mozilla Firefox\firefox.exe`}}},
		{`"C:\Program Files\Mozilla Firefox\firefox.exe" -new-tab %s;msedge`, "windows",
			[][]string{{`C:\Program Files\Mozilla Firefox\firefox.exe`, "-new-tab", "%s"}, {"msedge"}}},
		{`C:\Users\o'brien\browser.exe`, "windows", [][]string{{`C:\Users\o'brien\browser.exe`}}},
		{" : ", "linux", nil},
	} {
		if got := browserCommands(c.env, c.goos, isFile); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %q: got %q, want %q", c.goos, c.env, got, c.want)
		}
	}
	if got := withLink([]string{"firefox", "--url=%s"}, "https://x.test/"); !reflect.DeepEqual(got, []string{"firefox", "--url=https://x.test/"}) {
		t.Errorf("withLink %q", got)
	}
}

func TestLinksWithHiddenTextAreRefused(t *testing.T) {
	dir := t.TempDir()
	opened := filepath.Join(dir, "opened")
	t.Setenv("BROWSER", writeScript(t, "touch "+opened))
	for _, link := range []string{
		"https://gw.example/signin?next=\u202egnp.exe",
		"https://gw.example/\u200bsignin",
		"https://gw\u2066.example/",
		"https://gw.example/a b",
		"https://gw.example/\x1b[31m",
		"https://gw.example/\ufeff",
	} {
		if err := CheckLink(link); err == nil {
			t.Errorf("%q passes CheckLink", link)
		}
		n := OpenURL(link)().(NoticeMsg)
		if n.Notice.Tone != theme.ToneDanger || !strings.Contains(n.Notice.Text, "invisible or bidi") {
			t.Errorf("%q: %+v", link, n.Notice)
		}
	}
	if _, err := os.Stat(opened); err == nil {
		t.Fatal("a link with hidden text reached the browser")
	}
	if err := CheckLink("https://gw.example/signin?state=abc&x=%E2%80%AE"); err != nil {
		t.Fatalf("a percent-encoded link is what it shows: %v", err)
	}
}
