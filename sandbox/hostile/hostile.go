// Package hostile is a gateway that tries to drive the terminal of
// whoever shows its answers: a reverse proxy in front of a real gateway
// (the sandbox) that adds Payload to every string and map key of every
// JSON answer. The end-to-end tests run the binary against it and the
// screens' tests the app; Leaks says what of Payload reached an output.
// Only tests import it.
package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Payload holds one of every sequence a gateway's text could use to drive
// a terminal: window title (OSC 0 and 2), hyperlink (OSC 8), clipboard
// write (OSC 52), DCS, APC, CSI colours, 8-bit C1 controls and a bidi
// override. Each part carries a mark (PWN) the tests look for.
const Payload = "\x1b]0;PWN-title\x07\x1b]2;PWN-title2\x1b\\" +
	"\x1b]8;;https://evil.test/PWN\x1b\\link\x1b]8;;\x1b\\" +
	"\x1b]52;c;UFdOLWNsaXA=\x07" +
	"\x1bPqPWN-dcs\x1b\\\x1b_PWN-apc\x1b\\" +
	"\x1b[7;31;5mPWN-red\x1b[0m" +
	"\u009b7;31;5m\u009d0;PWN-c1\u0007\u0090PWN\u009c\u0085" +
	"\u202ePWN-rtl\u202c"

// marker is one part of Payload as it would reach an output unchanged.
type marker struct{ name, seq string }

// streamMarkers are what no output of cardterm's command line carries:
// it writes no OSC, DCS or APC introducer and no BEL at all.
var streamMarkers = []marker{
	{"OSC", "\x1b]"}, {"DCS", "\x1bP"}, {"APC", "\x1b_"}, {"PM", "\x1b^"}, {"SOS", "\x1bX"},
	{"BEL", "\x07"}, {"payload colour", "\x1b[7;31;5m"}, {"bidi override", "\u202e"},
}

// frameMarkers are Payload's own sequences: the app's frame has colour
// and, on a few screens, hyperlinks of its own (OSC 8 to the sandbox's
// PIN page), so a frame is searched for these rather than for any OSC.
var frameMarkers = []marker{
	{"OSC 0 title", "\x1b]0;"}, {"OSC 2 title", "\x1b]2;"}, {"OSC 52 clipboard", "\x1b]52;"},
	{"OSC 8 link", "\x1b]8;;https://evil.test"}, {"DCS", "\x1bP"}, {"APC", "\x1b_"},
	{"BEL", "\x07"}, {"payload colour", "\x1b[7;31;5m"}, {"bidi override", "\u202e"},
}

// Leaks lists what of Payload reached a command's output (stdout and
// stderr as a terminal received them): any OSC, DCS or APC introducer,
// any BEL, C1 control or bidi override, and the payload's own colour.
func Leaks(out []byte) []string { return leaks(out, streamMarkers) }

// FrameLeaks is Leaks for a frame the app draws, which has escape
// sequences of its own: it looks for Payload's sequences and for any C1
// control.
func FrameLeaks(frame string) []string { return leaks([]byte(frame), frameMarkers) }

func leaks(out []byte, markers []marker) []string {
	var found []string
	for _, bad := range markers {
		if bytes.Contains(out, []byte(bad.seq)) {
			found = append(found, bad.name)
		}
	}
	for i := 0; i+1 < len(out); i++ {
		if out[i] == 0xc2 && out[i+1] >= 0x80 && out[i+1] <= 0x9f {
			found = append(found, fmt.Sprintf("C1 U+%04X", out[i+1]))
			break
		}
	}
	return found
}

// exceptions are the JSON fields a hostile gateway leaves alone so that
// the client can go on talking to it: tokens go back in headers.
var exceptions = map[string]bool{"accessToken": true, "refreshToken": true, "expiresIn": true}

// unpoisoned are the map keys that keep their name (the payload goes in
// their values only): the envelopes of lists, whose loss would empty
// every list before it reaches a screen.
var unpoisoned = map[string]bool{"data": true, "items": true, "transactions": true}

// parseable matches the strings a hostile gateway can leave alone so that
// an answer still parses (amounts, dates), and its text fields (currency,
// merchant...) reach further in.
var parseable = regexp.MustCompile(`^-?[0-9][0-9.:TZ+-]*$`)

// Poison returns v with Payload added to every string, map key included,
// but the exceptions (and, with keepParseable, numbers and dates).
func Poison(v any, keepParseable bool) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, value := range x {
			if exceptions[k] {
				out[k] = value
				continue
			}
			out[k] = Poison(value, keepParseable)
			if !unpoisoned[k] {
				out[k+Payload] = "key"
			}
		}
		return out
	case []any:
		for i := range x {
			x[i] = Poison(x[i], keepParseable)
		}
		return x
	case string:
		if keepParseable && parseable.MatchString(x) {
			return x
		}
		return x + Payload
	}
	return v
}

// Proxy serves target's answers, each JSON string (and map key) poisoned
// by Poison: every endpoint's shape, with escape sequences in each string
// field, over HTTP. Other answers (pages, images, streams) pass as they
// are.
func Proxy(target string, keepParseable bool) (http.Handler, error) {
	to, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	proxy := httputil.NewSingleHostReverseProxy(to)
	proxy.ModifyResponse = func(resp *http.Response) error {
		if !strings.Contains(resp.Header.Get("Content-Type"), "json") {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return err
		}
		var v any
		if json.Unmarshal(body, &v) == nil {
			body, _ = json.Marshal(Poison(v, keepParseable))
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	return proxy, nil
}
