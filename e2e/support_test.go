package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
)

// A support agent with the tenant's client key alone, and no customer
// password, looks a customer up, pages through an audit trail longer than
// one page, filters it and exports the case; the gateway never sees a
// sign-in or any request outside the consent look-ups.
func TestSupportConsoleWithTheClientKeyAlone(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	// The export lands in the working directory, as for an agent in a shell.
	dir := t.TempDir()
	t.Chdir(dir)

	tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=", "XDG_STATE_HOME=" + filepath.Join(dir, "state")},
		"support", "--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox")
	tm.waitFor("Support console", "no customer sign-in", sandbox.DemoClientKey)

	alice := sandbox.DemoUserID("alice@demo.test")
	tm.send("u")
	tm.typeText(alice)
	tm.send("Enter")
	tm.waitFor("COMPLETE", "termsAndPrivacy")

	// The audit trail: every page fetched in turn, the count climbing past
	// one page (50 records).
	tm.send("a")
	s := tm.waitFor("Audit trail", "records loaded")
	loaded := regexp.MustCompile(`([0-9,]+) of ([0-9,]+) records loaded`)
	count := func(text string) int {
		n, _ := strconv.Atoi(strings.ReplaceAll(text, ",", ""))
		return n
	}
	for deadline := time.Now().Add(e2eWait); ; s = tm.screen() {
		// "0 of 0 records loaded · loading…" comes first: wait for the end.
		if m := loaded.FindStringSubmatch(s); m != nil && m[1] == m[2] && count(m[2]) > 0 && !strings.Contains(s, "loading…") {
			if count(m[2]) <= 50 {
				t.Fatalf("the trail has %s records; the test needs more than one page", m[2])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the audit trail never finished loading:\n%s", s)
		}
		time.Sleep(40 * time.Millisecond)
	}
	audits := 0
	for _, r := range sb.Server.Requests() {
		if strings.HasSuffix(r.Path, "/audit") {
			audits++
		}
	}
	if audits < 2 {
		t.Fatalf("%d audit pages fetched", audits)
	}

	tm.send("t")
	tm.waitFor("filters: type")
	tm.send("Escape")
	tm.waitFor("COMPLETE")

	tm.send("e")
	tm.waitFor("case written to")
	mds, _ := filepath.Glob(filepath.Join(dir, "case-user-"+alice+"-*.md"))
	jsons, _ := filepath.Glob(filepath.Join(dir, "case-user-"+alice+"-*.json"))
	if len(mds) != 1 || len(jsons) != 1 {
		t.Fatalf("exported %v %v", mds, jsons)
	}
	md, _ := os.ReadFile(mds[0])
	for _, want := range []string{"# Consent case: user " + alice, "**Consent status: complete**", "## Audit trail ("} {
		if !strings.Contains(string(md), want) {
			t.Fatalf("the exported Markdown lacks %q:\n%s", want, md)
		}
	}

	for i, r := range sb.Server.Requests() {
		if i == 0 && r.Method == "GET" && r.Path == "/v1/webhooks" {
			continue // the app's question at start, with no credential: is this the sandbox?
		}
		if !strings.HasPrefix(r.Path, "/v2/consent/") || r.Method != "GET" {
			t.Fatalf("the support console sent %s %s", r.Method, r.Path)
		}
	}
}
