package casefile

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestScrubTakesOutEmailsKeysTokensAndCardNumbers(t *testing.T) {
	in := "Alice Martin (alice@demo.test) key sk_sandbox_acme_123 token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc " +
		`{"accessToken": "abc123"} card 4242424242424242 or 4242 4242 4242 4242; user 5f1c2d3e-1234-5678-9abc-def012345678 at 2026-11-27T08:00:00Z, ending 4242`
	out := Scrub(in)
	for _, leak := range []string{"alice@demo.test", "sk_sandbox", "eyJhbGci", "abc123", "4242424242424242", "4242 4242 4242 4242"} {
		if strings.Contains(out, leak) {
			t.Errorf("Scrub kept %q: %s", leak, out)
		}
	}
	for _, kept := range []string{"Alice Martin", "5f1c2d3e-1234-5678-9abc-def012345678", "2026-11-27T08:00:00Z", "ending 4242"} {
		if !strings.Contains(out, kept) {
			t.Errorf("Scrub took %q away: %s", kept, out)
		}
	}
}

func TestSaveLoadKeepsTheCaseOwnerOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cases")
	now := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	c := New("TCK-9", "ck_sandbox_acme", now)
	c.AddLookup(Lookup{Time: now, Agent: "dana", Kind: "user", ID: "u1", Region: "EU", Answer: "consent status complete"})
	c.AddNote(Note{Time: now, Agent: "dana", Text: "line one\nline two"})
	c.AddEvidence(Item{Time: now, Agent: "dana", Title: "Card screen", Text: "ACTIVE", Request: Request{Method: "GET", Path: "/v1/card/status", Region: "EU", Via: "approved session"}, SHA256: "ab"})
	path := PathFor(dir, "TCK/9")
	if filepath.Base(path) != "case-TCK_9.json" {
		t.Fatalf("path %s", path)
	}
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("case file mode %v, %v", info.Mode(), err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Ticket != "TCK-9" || len(back.Notes) != 1 || back.Notes[0].Text != "line one\nline two" || len(back.Evidence) != 1 || len(back.Activity) != 2 {
		t.Fatalf("loaded %+v", back)
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil {
		t.Fatal("a missing case file loaded")
	}
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"version":7}`), 0o600)
	if _, err := Load(filepath.Join(dir, "bad.json")); err == nil || !strings.Contains(err.Error(), "not a case file") {
		t.Fatalf("a foreign file loaded: %v", err)
	}
	link := filepath.Join(dir, "link.json")
	os.Symlink(path, link)
	if err := c.Save(link); err == nil {
		t.Fatal("wrote through a symbolic link")
	}
	// Opened, a linked case could never be kept: it is refused at once.
	if _, err := Load(link); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Fatalf("a case opened through a symbolic link: %v", err)
	}
}

func TestExportHoldsNotesEvidenceAndNoEmail(t *testing.T) {
	now := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	c := New("TCK-9", "ck", now)
	c.AddNote(Note{Time: now, Agent: "dana", Text: "customer alice@demo.test called"})
	c.AddNote(Note{Time: now.Add(time.Hour), Agent: "eli", Text: "called back"})
	c.AddEvidence(Item{Time: now, Agent: "dana", Title: "Account screen", Text: "Alice Martin alice@demo.test", Request: Request{Method: "GET", Path: "/v1/user", Region: "EU", Via: "approved session", Status: 200}, SHA256: "0123abcd"})
	e := NewExport(c, "eli", now.Add(2*time.Hour))
	same := func(s string) string { return s }
	md := e.Markdown(same, same, func(t time.Time) string { return t.Format(time.RFC3339) })
	js, err := e.JSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"dana", "eli", "called back", "`GET /v1/user`", "0123abcd", "Agents: dana, eli"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "alice@demo.test") || strings.Contains(string(js), "alice@demo.test") {
		t.Fatalf("the export holds the e-mail:\n%s\n%s", md, js)
	}
	if c.Notes[0].Text != "customer alice@demo.test called" {
		t.Fatal("the export changed the case itself")
	}
}

func TestRecorderNotesRequestRegionAndHash(t *testing.T) {
	body := `{"status":"ACTIVE"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }))
	defer srv.Close()
	rec := NewRecorder(nil, "approved session", nil)
	req, _ := http.NewRequest("GET", srv.URL+"/v1/card/status", nil)
	req.Header.Set("x-us-env", "true")
	resp, err := rec.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != body {
		t.Fatalf("the body reached the caller as %q", got)
	}
	a, ok := rec.Latest("/v1/card")
	sum := sha256.Sum256([]byte(body))
	if !ok || a.SHA256 != hex.EncodeToString(sum[:]) || a.Request.Region != "US" || a.Request.Path != "/v1/card/status" || a.Request.Status != 200 {
		t.Fatalf("recorded %+v", a)
	}
	if _, ok := rec.Latest("/v1/wallet"); ok {
		t.Fatal("an answer for a path never asked")
	}
}
