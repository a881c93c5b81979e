package ui

import (
	"strings"
	"testing"
)

func TestDesktopNotifyForTheTerminal(t *testing.T) {
	for env, want := range map[string]DesktopNotify{
		"TERM_PROGRAM=iTerm.app":             DesktopOSC9,
		"WT_SESSION=1":                       DesktopOSC9,
		"VTE_VERSION=7600":                   DesktopOSC777,
		"TERM=foot":                          DesktopOSC777,
		"TERM=xterm-256color":                NoDesktopNotify,
		"TERM_PROGRAM=iTerm.app,TMUX=/tmp/x": NoDesktopNotify,
	} {
		vars := map[string]string{}
		for _, kv := range strings.Split(env, ",") {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		if got := DesktopNotifyFor(func(k string) string { return vars[k] }); got != want {
			t.Errorf("%s: %q, want %q", env, got, want)
		}
	}
}

// A gateway's text cannot end the sequence early or add one of its own.
func TestDesktopNotifySequenceIsClean(t *testing.T) {
	seq := DesktopOSC777.Sequence("Declined", "12.40 EUR; evil\x07\x1b]52;c;x\x07")
	if strings.Count(seq, "\x07") != 1 || strings.Count(seq, "\x1b") != 1 || strings.Count(seq, ";") != 3 {
		t.Fatalf("%q", seq)
	}
	if DesktopOSC9.Sequence("a", "b") != "\x1b]9;a: b\x07" || NoDesktopNotify.Notify("a", "b") != nil {
		t.Fatal("osc9 or none")
	}
}
