package screentest

import (
	"strings"
	"testing"
)

// What a test asserts of a frame: texts it shows or must not, and that no
// part of hostile gateway text reached it raw.

// MustShow fails unless the screen shows every text.
func MustShow(t testing.TB, screen string, texts ...string) {
	t.Helper()
	for _, text := range texts {
		if !strings.Contains(screen, text) {
			t.Fatalf("screen lacks %q:\n%s", text, screen)
		}
	}
}

// MustNotShow fails if the screen shows any of the texts.
func MustNotShow(t testing.TB, screen string, texts ...string) {
	t.Helper()
	for _, text := range texts {
		if strings.Contains(screen, text) {
			t.Fatalf("screen shows %q but must not:\n%s", text, screen)
		}
	}
}

// HostileText is gateway text that tries every trick: colour, a clipboard
// write (OSC 52), a bidi override, a zero-width space and a carriage
// return.
const HostileText = "\x1b[31mRED\x1b[0m\x1b]52;c;cm0gLXJmIH4=\x07\u202eevil\u200b\r"

// hostileBits are what must never reach the terminal from the gateway.
var hostileBits = []string{"\x1b]8;", "\x1b]52;", "\x1b[31m", "\x1b[2J", "\x07", "\r", "\u202e", "\u200b"}

// MustBeClean fails if a frame carries any part of HostileText raw.
func MustBeClean(t testing.TB, where, frame string) {
	t.Helper()
	for _, bad := range hostileBits {
		if strings.Contains(frame, bad) {
			t.Fatalf("%s carries %q from the gateway:\n%q", where, bad, frame)
		}
	}
}

// MustShow fails t unless the app's screen now shows every text.
func (a *App) MustShow(t testing.TB, texts ...string) {
	t.Helper()
	MustShow(t, a.Screen(), texts...)
}

// MustNotShow fails t if the app's screen now shows any of the texts.
func (a *App) MustNotShow(t testing.TB, texts ...string) {
	t.Helper()
	MustNotShow(t, a.Screen(), texts...)
}
