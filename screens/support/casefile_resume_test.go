package support_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardterm/domain/actionlog"
	"cardterm/sandbox"
	"cardterm/screens/support"
)

// writeCase writes a case file with one look-up of id under tenant.
func writeCase(t *testing.T, tenant, agent, id string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "case-TCK-9.json")
	c := map[string]any{"version": 1, "ticket": "TCK-9", "tenantClientKey": tenant, "created": time.Now(),
		"lookups": []map[string]any{{"time": time.Now(), "agent": agent, "kind": "user", "id": id, "region": "EU", "answer": "x"}}}
	data, _ := json.Marshal(c)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A case file's last look-up is checked as a typed id is: a card number or
// an e-mail in it is refused, never sent nor logged; a case naming no
// tenant is not opened; agent names are drawn sanitized.
func TestSupportCaseFileIsCheckedLikeTypedInput(t *testing.T) {
	for _, c := range []struct{ name, tenant, id, want string }{
		{"card number", sandbox.DemoClientKey, "4111 1111 1111 1111", "looks like a card number"},
		{"e-mail", sandbox.DemoClientKey, "alice@demo.test", "e-mail address"},
		{"700 kB id", sandbox.DemoClientKey, strings.Repeat("7", 700_000), "longer than an id"},
		{"no tenant", "", sandbox.DemoUserID("alice@demo.test"), "names no tenant"},
	} {
		t.Run(c.name, func(t *testing.T) {
			logPath := filepath.Join(t.TempDir(), "actions.jsonl")
			app := newConsole(t, support.Options{CaseFile: writeCase(t, c.tenant, "dana\x1b]0;PWN\x07", c.id), ActionLog: logPath})
			app.MustShow(t, c.want)
			entries, _ := actionlog.Open(logPath).Read(nil)
			for _, e := range entries {
				if e.UserID == c.id || strings.Contains(e.Request, c.id) {
					t.Errorf("the refused id was logged: %+v", e)
				}
			}
			if strings.Contains(app.Screen(), "\x1b]0;PWN") {
				t.Error("an agent name from the case file drew an escape sequence")
			}
		})
	}
}
