package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
	"cardterm/sandbox/webhookreceiver"
)

// target is a partner's server that notes each event id it receives,
// answering after delay.
func target(t *testing.T, delay time.Duration) (*httptest.Server, <-chan string) {
	t.Helper()
	got := make(chan string, 32)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev struct {
			EventID string `json:"event_id"`
		}
		_ = json.Unmarshal(body, &ev)
		got <- ev.EventID
		select {
		case <-time.After(delay):
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first: the slow answers end
	return srv, got
}

// Two targets, one answering after 10 s: the other gets every event at
// once, and each forward's JSON line carries its target's counts.
func TestListenForwardRoutesASlowTargetHoldsUpNoOther(t *testing.T) {
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	t.Setenv(webhookKeyEnv, "")
	slow, slowGot := target(t, 10*time.Second)
	fast, fastGot := target(t, 0)
	rl := startListenInProcess(t, "--base-url", gw.URL, "--forward", "card.*="+slow.URL, "--forward", "*="+fast.URL)
	waitFor(t, "stderr", rl.stderr.String, regexp.MustCompile(`Ready!`))
	if !strings.Contains(rl.stderr.String(), "Forwarding card.* to "+slow.URL+" (a queue of its own)") {
		t.Fatalf("stderr:\n%s", rl.stderr.String())
	}
	tools := sandboxTools(gw.URL)
	start := time.Now()
	var sent []string
	for _, eventType := range []string{"card.frozen", "card.unfrozen", "kyc.status.changed"} {
		sent = append(sent, triggerEvent(t, tools, eventType))
	}
	for i := range sent {
		select {
		case id := <-fastGot:
			if !containsID(sent, id) {
				t.Fatalf("the fast target got %q", id)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("the fast target got %d of 3 events in 3 s: the slow one holds it up", i)
		}
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("the fast target waited %s", took)
	}
	if id := <-slowGot; id != sent[0] && id != sent[1] {
		t.Fatalf("the slow target (card.* only) got %q", id)
	}
	lines := rl.lines(t, 3)
	for _, l := range lines {
		if l.Forward == nil || l.Forward.Pattern != "*" || l.Forward.URL != fast.URL || l.Forward.Counts == nil || l.Forward.Status != 204 && l.Forward.Status != 200 {
			t.Fatalf("forward line %+v", l.Forward)
		}
	}
	if last := lines[2].Forward.Counts; last.Forwarded != 3 || last.Queued != 3 {
		t.Fatalf("counts of the fast target after three: %+v", last)
	}
	// When listen stops: each target's counts, in words and as a last JSON line.
	_ = rl.stop()
	if !strings.Contains(rl.stderr.String(), "[* → "+fast.URL+": 3 forwarded, 0 failed") ||
		!strings.Contains(rl.stderr.String(), "[card.* → "+slow.URL+":") {
		t.Fatalf("stderr at the stop:\n%s", rl.stderr.String())
	}
	out := strings.TrimSpace(rl.stdout.String())
	if last := out[strings.LastIndex(out, "\n")+1:]; !strings.HasPrefix(last, `{"targets":[{"pattern":"card.*"`) {
		t.Fatalf("last line %s", last)
	}
}

func containsID(ids []string, id string) bool {
	for _, s := range ids {
		if s == id {
			return true
		}
	}
	return false
}

func TestListenForwardRefusesAMalformedRoute(t *testing.T) {
	for _, bad := range []string{"card.*", "=http://x", "ca*rd=http://x"} {
		_, err := webhookreceiver.ParseRoute(bad)
		if err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for text, want := range map[string]webhookreceiver.Route{
		"card.*=http://127.0.0.1:3000/cards": {Pattern: "card.*", URL: "http://127.0.0.1:3000/cards"},
		"*=http://x/":                        {Pattern: "*", URL: "http://x/"},
		" kyc.status.changed = http://y/ ":   {Pattern: "kyc.status.changed", URL: "http://y/"},
	} {
		if got, err := webhookreceiver.ParseRoute(text); err != nil || got != want {
			t.Errorf("%q: %+v %v", text, got, err)
		}
	}
}
