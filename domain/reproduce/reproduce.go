// Package reproduce turns what a support case saw of a customer (the
// consent sets and audit trail, the card, the verification state) into a
// sandbox fixture on one of the sandbox's demo users, every personal
// value replaced by a stable stand-in: ids by a hash (the same id always
// gets the same stand-in, so the records still point at each other),
// IP addresses, user agents and the card holder's name left out, the
// customer's name, e-mail, phone and address never read. Engineering
// loads it with cardterm sandbox --fixture and reproduces the ticket
// without the customer's data.
package reproduce

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/casefile"
	"cardterm/sandbox"
)

// Source is what a reproduction is made of: the case, and the
// customer's consents and audit trail as the gateway holds them (read
// again with the client key, as a case export does).
type Source struct {
	Case   *casefile.Case
	UserID string
	Status apiclient.UserConsentStatus
	Audit  []apiclient.AuditRecord
}

// Build is the reproduction of src for the tenant's client key; said
// lists what it holds and what it could not, in words.
func Build(src Source, clientKey string, us bool) (repro sandbox.Repro, said []string) {
	repro = sandbox.Repro{ClientKey: clientKey, US: us, Avoid: []string{src.UserID}}
	for _, set := range src.Status.ConsentSets {
		repro.Sets = append(repro.Sets, standInSet(set))
	}
	for _, a := range src.Audit {
		r := sandbox.ReproAudit{ID: StandIn("audit", a.AuditID), Action: a.Action, SetID: StandIn("set", a.ConsentSetID),
			ClientID: a.Metadata.ClientID, At: parseTime(a.Timestamp),
			AfterType: a.Changes.After.ConsentType, AfterStatus: a.Changes.After.ConsentStatus}
		if b := a.Changes.Before; b != nil {
			r.BeforeType, r.BeforeStatus = b.ConsentType, b.ConsentStatus
		}
		repro.Audit = append(repro.Audit, r)
	}
	said = append(said, plural(len(repro.Sets), "consent set")+" and "+plural(len(repro.Audit), "audit record")+" (consent status "+orText(src.Status.ConsentStatus, "none")+")")
	if card, ok := latestJSON(src.Case, "/v1/card/status"); ok {
		repro.Card = &sandbox.ReproCard{ID: StandIn("card", text(card, "id")), Status: text(card, "status"), Type: text(card, "type"),
			Last4: text(card, "panLast4"), Expiry: text(card, "expiryDate"), OrderedAt: text(card, "orderedAt")}
		said = append(said, "the card ("+repro.Card.Status+" "+repro.Card.Type+")")
	} else {
		said = append(said, "no card: the case kept no card answer (keep the Card screen with ctrl+k in an approved session)")
	}
	if user, ok := latestJSON(src.Case, "/v1/user"); ok {
		repro.Verification = text(user, "verificationState")
		said = append(said, "the verification state ("+repro.Verification+")")
	}
	return repro, said
}

func standInSet(set apiclient.ConsentSet) sandbox.ReproSet {
	out := sandbox.ReproSet{ID: StandIn("set", set.ConsentSetID), OnboardingID: StandIn("onboarding", set.OnboardingID),
		Policy: set.PolicyType, Linked: set.Linked(), CreatedAt: parseTime(set.CreatedAt), UpdatedAt: parseTime(set.UpdatedAt)}
	if set.CompletedAt != nil {
		t := parseTime(*set.CompletedAt)
		out.CompletedAt = &t
	}
	for _, c := range set.Consents {
		client := ""
		if c.Metadata != nil {
			client = c.Metadata.ClientID
		}
		out.Consents = append(out.Consents, sandbox.ReproConsent{ID: StandIn("consent", c.ConsentID), Type: c.ConsentType,
			Status: c.ConsentStatus, ClientID: client, CreatedAt: parseTime(c.CreatedAt), UpdatedAt: parseTime(c.UpdatedAt),
			Superseded: !apiclient.IsCurrentConsent(set, c.ConsentID)})
	}
	return out
}

// StandIn is the stand-in of an id: a UUID-shaped hash of its kind and
// value, the same each time; "" stays "".
func StandIn(kind, id string) string {
	if id == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("cardterm-reproduce\x00" + kind + "\x00" + id))
	h := hex.EncodeToString(sum[:16])
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-8" + h[17:20] + "-" + h[20:32]
}

// latestJSON is the newest piece of evidence read from a path prefix
// whose text is a JSON object (a record kept in an approved session).
func latestJSON(c *casefile.Case, prefix string) (map[string]any, bool) {
	for i := len(c.Evidence) - 1; i >= 0; i-- {
		it := c.Evidence[i]
		path, _, _ := strings.Cut(it.Request.Path, "?")
		if path != prefix && !strings.HasPrefix(path, prefix+"/") {
			continue
		}
		var out map[string]any
		if json.Unmarshal([]byte(it.Text), &out) == nil {
			return out, true
		}
	}
	return nil, false
}

func text(m map[string]any, k string) string {
	if v, ok := m[k].(string); ok {
		return v
	}
	return ""
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t.UTC()
}

func orText(v, otherwise string) string {
	if v == "" {
		return otherwise
	}
	return v
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strings.TrimSpace(strings.Join([]string{strconv.Itoa(n), what + "s"}, " "))
}
