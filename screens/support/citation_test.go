package support_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/sandbox"
	"cardterm/screens/screentest"
	"cardterm/screens/support"
)

// keptEvidence is a case file's evidence as a test reads it.
type keptEvidence struct {
	Title   string
	Text    string
	SHA256  string
	Request struct{ Method, Path string }
	More    []struct {
		SHA256  string
		Request struct{ Method, Path string }
	} `json:"moreAnswers"`
}

func readEvidence(t *testing.T, file string) []keptEvidence {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ Evidence []keptEvidence }
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c.Evidence
}

// askAgain sends a cited request again with the client key and returns
// the answer's body and its SHA-256.
func askAgain(t *testing.T, app *screentest.App, path string) (string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, app.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-client-key", sandbox.DemoClientKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	return string(body), hex.EncodeToString(sum[:])
}

// A record kept from each page of alice's three-page audit trail cites
// the page that held it: asked again, that page holds the record and
// hashes to the cited SHA-256. (The console cited the latest page read.)
func TestSupportEvidenceCitesThePageThatHeldTheRecord(t *testing.T) {
	dir := t.TempDir()
	alice := sandbox.DemoUserID("alice@demo.test")
	app := newConsole(t, support.Options{User: alice, CasesDir: dir, Agent: "dana"})
	app.Keys("T")
	app.Type("TCK-CITE")
	app.Keys("enter", "a")
	app.MustShow(t, "Audit trail")
	for _, step := range []int{0, 60, 60} {
		for range step {
			app.Keys("j")
		}
		app.Keys("ctrl+k")
	}
	evidence := readEvidence(t, filepath.Join(dir, "case-TCK-CITE.json"))
	if len(evidence) != 3 {
		t.Fatalf("kept %d pieces of evidence", len(evidence))
	}
	pages := map[string]bool{}
	for _, e := range evidence {
		var record struct{ AuditID string }
		if err := json.Unmarshal([]byte(e.Text), &record); err != nil || record.AuditID == "" {
			t.Fatalf("the evidence is not a record (%v): %s", err, e.Text)
		}
		body, sum := askAgain(t, app, e.Request.Path)
		if !strings.Contains(body, record.AuditID) {
			t.Errorf("record %s cites %s, a page without it", record.AuditID, e.Request.Path)
		}
		if sum != e.SHA256 {
			t.Errorf("record %s cites %s with sha256 %s; asked again it hashes to %s", record.AuditID, e.Request.Path, e.SHA256, sum)
		}
		pages[e.Request.Path] = true
	}
	if len(pages) != 3 {
		t.Fatalf("three records from three pages cite %d pages: %v", len(pages), pages)
	}
}

// The audit runbook fact cites the page holding the revocation first,
// then every other page read, each hash that page's.
func TestSupportRunbookAuditFactCitesEveryPage(t *testing.T) {
	dir := t.TempDir()
	alice := sandbox.DemoUserID("alice@demo.test")
	app := newConsole(t, support.Options{User: alice, CasesDir: dir, Agent: "dana"})
	app.Keys("T")
	app.Type("TCK-RUN")
	app.Keys("enter", "B")
	app.MustShow(t, "Consent revoked by mistake")
	app.Keys("j", "enter")
	app.MustShow(t, "TCK-RUN")
	var fact *keptEvidence
	for _, e := range readEvidence(t, filepath.Join(dir, "case-TCK-RUN.json")) {
		if strings.Contains(e.Title, "audit trail") {
			fact = &e
		}
	}
	if fact == nil {
		t.Fatal("no audit fact kept")
	}
	cited := []struct{ path, sum string }{{fact.Request.Path, fact.SHA256}}
	for _, m := range fact.More {
		cited = append(cited, struct{ path, sum string }{m.Request.Path, m.SHA256})
	}
	if len(cited) < 2 {
		t.Fatalf("a trail of several pages cites %d", len(cited))
	}
	for _, c := range cited {
		if _, sum := askAgain(t, app, c.path); sum != c.sum {
			t.Errorf("%s cited with %s; asked again it hashes to %s", c.path, c.sum, sum)
		}
	}
}
