package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardterm/theme"
)

func TestOpenURLWithBrowserEnv(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	script := filepath.Join(dir, "browser")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$1 $2\" > "+out+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	secret := "https://gw.example/pin?token=SECRET"
	t.Setenv("BROWSER", script+" --new %s")
	msg := OpenLabeled("PIN page", secret)().(NoticeMsg)
	if msg.Notice.Tone != theme.ToneOK || msg.Notice.Text != "opened PIN page in the browser" {
		t.Fatalf("notice %+v", msg.Notice)
	}
	var got []byte
	for i := 0; i < 100; i++ {
		if got, _ = os.ReadFile(out); len(got) > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if strings.TrimSpace(string(got)) != "--new "+secret {
		t.Fatalf("browser got %q", got)
	}

	t.Setenv("BROWSER", filepath.Join(dir, "missing"))
	msg = OpenURL(secret)().(NoticeMsg)
	if msg.Notice.Tone != theme.ToneDanger || strings.Contains(msg.Notice.Text, "SECRET") {
		t.Fatalf("failure notice %+v", msg.Notice)
	}
	for _, bad := range []string{"file:///etc/passwd", "javascript:alert(1)", "not a url", "http://"} {
		msg = OpenURL(bad)().(NoticeMsg)
		if msg.Notice.Tone != theme.ToneDanger || strings.Contains(msg.Notice.Text, bad) {
			t.Errorf("%q: %+v", bad, msg.Notice)
		}
	}
}

func TestOpenWithoutAnyBrowserSaysWhatHelps(t *testing.T) {
	t.Setenv("BROWSER", "")
	t.Setenv("PATH", t.TempDir()) // no xdg-open, no sensible-browser
	msg := OpenLabeled("set-PIN page", "http://127.0.0.1:1/pin-direct/set?token=x")()
	n, ok := msg.(NoticeMsg)
	if !ok || !strings.Contains(n.Notice.Text, "no browser found here (set $BROWSER)") {
		t.Fatalf("notice %+v", msg)
	}
	if strings.Contains(n.Notice.Text, "token=") {
		t.Fatalf("the notice shows the link: %q", n.Notice.Text)
	}
}
