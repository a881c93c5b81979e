package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// consent-set, added by following ARCHITECTURE.md's recipe for a
// look-up: one consent set as the gateway sent it, with the client key
// alone; an unknown id is the gateway's 404 and exit 1.
func TestConsentSetLookup(t *testing.T) {
	out, _, code := lookupRun(t, nil, "user")
	var user struct{ ID string }
	if err := json.Unmarshal([]byte(out), &user); code != 0 || err != nil {
		t.Fatalf("user: %d %v", code, err)
	}
	noUser := []string{"CARDTERM_USERNAME=", "CARDTERM_PASSWORD="}
	out, _, code = lookupRun(t, noUser, "consent", user.ID)
	var status struct {
		ConsentSets []struct{ ConsentSetID string } `json:"consentSets"`
	}
	if err := json.Unmarshal([]byte(out), &status); code != 0 || err != nil || len(status.ConsentSets) == 0 {
		t.Fatalf("consent: %d %v %q", code, err, out)
	}
	id := status.ConsentSets[0].ConsentSetID
	out, _, code = lookupRun(t, noUser, "consent-set", id)
	if code != 0 || !strings.Contains(out, `"consentSetId": "`+id+`"`) || !strings.Contains(out, `"consents"`) {
		t.Fatalf("consent-set: %d %q", code, out)
	}
	if _, errOut, code := lookupRun(t, noUser, "consent-set", "00000000-0000-0000-0000-000000000000"); code != 1 || !strings.Contains(errOut, "404") {
		t.Fatalf("an unknown set: %d %q", code, errOut)
	}
	if _, _, code := lookupRun(t, noUser, "consent-set"); code != exitUsage {
		t.Fatalf("no id: exit %d, want 2", code)
	}
}
