package runbook

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cardterm/apiclient"
	"cardterm/domain/casefile"
	"cardterm/domain/ledger"
)

// Sources are the credentials a run reads with. Consent is the tenant's
// client-key client (consents, audit trail, onboarding sets); Customer is
// the customer-approved session's client, nil while there is none. Each
// sends through its Recorder, so that every fact names its answer.
type Sources struct {
	UserID string
	// Onboarding is the onboarding id when the case is an onboarding's.
	Onboarding  string
	Consent     *apiclient.Client
	ConsentRec  *casefile.Recorder
	Customer    *apiclient.Client
	CustomerRec *casefile.Recorder
}

// Fact is one thing a run learnt, or why it could not.
type Fact struct {
	Name  string
	Label string
	// Values fill a runbook's {name.value} placeholders.
	Values map[string]string
	// Summary says the fact in one line (the case's evidence, the screen).
	Summary string
	// Missing says why the fact could not be gathered; "" when it was.
	Missing string
	// Answers are where the fact came from, one per request.
	Answers []casefile.Answer
	// Events are dated records for the customer's timeline.
	Events []casefile.Event
}

// gatherer reads one fact.
type gatherer struct {
	name     string
	label    string
	customer bool // needs the approved session
	read     func(ctx context.Context, src Sources, f *Fact) error
}

// noApproval is what a customer fact says without an approved session.
const noApproval = "needs the customer's approval: open an approved session (ctrl+o) and the run goes on"

// gatherers are the facts a runbook may name. A slice the compiler lays
// out, not a map, which would be built before main on every start.
var gatherers = []gatherer{
	{name: "consent", label: "Consent status", read: readConsent},
	{name: "audit", label: "Consent audit trail", read: readAudit},
	{name: "onboarding", label: "Onboarding consent sets", read: readOnboarding},
	{name: "verification", label: "Identity verification", customer: true, read: readVerification},
	{name: "card", label: "Card", customer: true, read: readCard},
	{name: "wallets", label: "Card-linked wallets", customer: true, read: readWallets},
	{name: "credit", label: "Credit wallet and withdrawal", customer: true, read: readCredit},
	{name: "transactions", label: "Card transactions", customer: true, read: readTransactions},
	{name: "products", label: "Cards the customer may order", customer: true, read: readProducts},
}

// gathererOf is the gatherer of the fact named name; ok is false when no
// runbook may name it.
func gathererOf(name string) (g gatherer, ok bool) {
	i := slices.IndexFunc(gatherers, func(g gatherer) bool { return g.name == name })
	if i < 0 {
		return gatherer{}, false
	}
	return gatherers[i], true
}

// FactNames lists the facts a runbook may name.
func FactNames() []string {
	return []string{"consent", "audit", "onboarding", "verification", "card", "wallets", "credit", "transactions", "products"}
}

// NeedsApproval reports whether a fact is read in the customer's session.
func NeedsApproval(name string) bool {
	g, _ := gathererOf(name)
	return g.customer
}

// Gather reads one fact; a fact the sources cannot reach says why.
func Gather(ctx context.Context, src Sources, name string) Fact {
	g, ok := gathererOf(name)
	f := Fact{Name: name, Label: g.label, Values: map[string]string{}}
	switch {
	case !ok:
		f.Label, f.Missing = name, "no such fact (the facts are "+strings.Join(FactNames(), ", ")+")"
		return f
	case g.customer && src.Customer == nil:
		f.Missing = noApproval
		return f
	case !g.customer && src.Consent == nil:
		f.Missing = "no client-key client"
		return f
	}
	if err := g.read(ctx, src, &f); err != nil {
		f.Missing = "the gateway answered: " + apiclient.ErrorMessage(err)
	}
	return f
}

// from notes the latest answer a recorder has for a path prefix.
func (f *Fact) from(rec *casefile.Recorder, prefix string) {
	if a, ok := rec.Latest(prefix); ok {
		f.Answers = append(f.Answers, a)
	}
}

func readConsent(ctx context.Context, src Sources, f *Fact) error {
	st, err := src.Consent.UserConsent(ctx, src.UserID, true)
	f.from(src.ConsentRec, "/v2/consent/user/")
	switch {
	case apiclient.IsNotFound(err):
		f.Values["status"] = "none"
		f.Values["missing"] = "no consent set at all"
		f.Summary = "no consent set for this user (404)"
		return nil
	case err != nil:
		return err
	}
	missing := missingRequired(st.ConsentSets)
	f.Values["status"] = st.ConsentStatus
	f.Values["missing"] = orText(strings.Join(missing, "; "), "nothing required is missing")
	var onboardings []string
	for _, set := range st.ConsentSets {
		onboardings = append(onboardings, set.OnboardingID)
	}
	f.Values["onboarding"] = orText(strings.Join(onboardings, ", "), "none")
	f.Summary = "consent status " + st.ConsentStatus + "; " + f.Values["missing"]
	return nil
}

// missingRequired lists the required consents not granted, per set.
func missingRequired(sets []apiclient.ConsentSet) []string {
	var out []string
	for _, set := range sets {
		for _, gap := range apiclient.RequiredNotGranted(set) {
			out = append(out, gap.Type+" is "+gap.Status)
		}
	}
	return out
}

func readAudit(ctx context.Context, src Sources, f *Fact) error {
	trail, err := ReadAudit(ctx, src.Consent, src.UserID)
	if apiclient.IsNotFound(err) {
		f.from(src.ConsentRec, "/v2/consent/user/")
		f.Values["revoked"], f.Values["count"] = "no revocation", "0"
		f.Summary = "no audit trail (no consent set)"
		return nil
	}
	if err != nil {
		return err
	}
	f.Values["count"] = strconv.Itoa(trail.Total)
	last := -1
	for i, r := range trail.Records {
		f.Events = append(f.Events, AuditEvent(r))
		if r.Action == "revoked" && (last < 0 || r.Timestamp > trail.Records[last].Timestamp) {
			last = i
		}
	}
	f.Answers = trail.Pages
	f.Values["revoked"] = "no revocation recorded"
	if last >= 0 {
		r := trail.Records[last]
		by := orText(r.Metadata.ClientID, "a client the audit record does not name")
		f.Values["revoked"] = r.Changes.After.ConsentType + " was revoked on " + readableTime(r.Timestamp) + " (recorded client: " + by + ")"
		f.Values["revokedType"] = r.Changes.After.ConsentType
		// The fact is the revocation: its page is cited first.
		page := trail.PageOf[last]
		f.Answers = append([]casefile.Answer{trail.Pages[page]}, append(slices.Clone(trail.Pages[:page]), trail.Pages[page+1:]...)...)
	}
	f.Summary = f.Values["count"] + " audit records; " + f.Values["revoked"]
	return nil
}

// maxAuditPages bounds the pages of an audit trail a run reads.
const maxAuditPages = 50

// AuditTrail is a user's audit trail as read, with the answer of each
// page, so that a record is cited by the page that held it.
type AuditTrail struct {
	Records []apiclient.AuditRecord
	Total   int
	// Pages are the answers of the pages read, in order; PageOf is, per
	// record, the index of its page.
	Pages  []casefile.Answer
	PageOf []int
}

// ReadAudit reads a user's audit trail page by page (at most
// maxAuditPages of 100), noting each page's answer.
func ReadAudit(ctx context.Context, client *apiclient.Client, userID string) (AuditTrail, error) {
	var trail AuditTrail
	for offset, pages := 0, 0; pages < maxAuditPages; pages++ {
		pageCtx, captured := casefile.Capture(ctx)
		page, err := client.ConsentAudit(pageCtx, userID, apiclient.ConsentAuditMaxLimit, offset)
		if err != nil {
			return AuditTrail{}, err
		}
		answer, _ := captured.Last()
		trail.Pages = append(trail.Pages, answer)
		for range page.AuditRecords {
			trail.PageOf = append(trail.PageOf, len(trail.Pages)-1)
		}
		trail.Records = append(trail.Records, page.AuditRecords...)
		trail.Total = max(page.Pagination.Total, len(trail.Records))
		offset = page.Pagination.Offset + len(page.AuditRecords)
		if len(page.AuditRecords) == 0 || offset >= page.Pagination.Total {
			break
		}
	}
	return trail, nil
}

// AuditEvent is an audit record as a timeline line (no IP address or
// user agent).
func AuditEvent(r apiclient.AuditRecord) casefile.Event {
	text := "consent " + r.Changes.After.ConsentType + " " + r.Action + " (" + r.Changes.After.ConsentStatus + ")"
	if r.Metadata.ClientID != "" {
		text += " by client " + r.Metadata.ClientID
	}
	return casefile.Event{Time: r.Timestamp, Source: "consent audit", Text: text, Key: "audit:" + r.AuditID}
}

func readOnboarding(ctx context.Context, src Sources, f *Fact) error {
	id := src.Onboarding
	if id == "" && src.UserID != "" {
		st, err := src.Consent.UserConsent(ctx, src.UserID, true)
		f.from(src.ConsentRec, "/v2/consent/user/")
		if err != nil && !apiclient.IsNotFound(err) {
			return err
		}
		for _, set := range st.ConsentSets {
			id = set.OnboardingID
		}
	}
	if id == "" {
		f.Values["sets"], f.Values["waiting"] = "0", "0"
		f.Summary = "no onboarding id known for this user (no consent set)"
		return nil
	}
	o, err := src.Consent.OnboardingConsents(ctx, id)
	f.from(src.ConsentRec, "/v2/consent/onboarding/")
	if apiclient.IsNotFound(err) {
		f.Values["sets"], f.Values["waiting"] = "0", "0"
		f.Summary = "no consent set for onboarding " + id + " (404)"
		return nil
	}
	if err != nil {
		return err
	}
	waiting := 0
	for _, set := range o.ConsentSets {
		if !set.Linked() {
			waiting++
		}
	}
	f.Values["id"], f.Values["sets"], f.Values["waiting"] = id, strconv.Itoa(len(o.ConsentSets)), strconv.Itoa(waiting)
	f.Summary = fmt.Sprintf("onboarding %s: %d consent sets, %d waiting to be linked to a user", id, len(o.ConsentSets), waiting)
	return nil
}

func readVerification(ctx context.Context, src Sources, f *Fact) error {
	u, err := src.Customer.User(ctx)
	f.from(src.CustomerRec, "/v1/user")
	if err != nil {
		return err
	}
	// Only the state: the profile's name, e-mail and address stay out of
	// the case.
	state := u.VerificationState
	f.Values["state"] = state
	switch state {
	case "VERIFIED":
		f.Values["advice"] = "Your identity is verified."
	case "PENDING":
		f.Values["advice"] = "Your identity verification is still being reviewed; we cannot see from here what it is waiting for."
	case "REJECTED":
		f.Values["advice"] = "Your identity verification was not accepted; we cannot see the reason from here and will ask the verification team."
	default:
		f.Values["advice"] = "Your identity has not been verified yet: card and wallet operations need a completed verification."
	}
	f.Summary = verificationSummary(state)
	return nil
}

func readCard(ctx context.Context, src Sources, f *Fact) error {
	c, err := src.Customer.CardStatus(ctx)
	f.from(src.CustomerRec, "/v1/card/status")
	if apiclient.IsNotFound(err) {
		f.Values["status"], f.Values["last4"], f.Values["type"] = "none", "none", "none"
		f.Values["advice"] = "You have no card yet: you can order one in the app."
		f.Summary = noCardSummary
		return nil
	}
	if err != nil {
		return err
	}
	f.Values["status"], f.Values["last4"], f.Values["type"] = c.Status, c.PanLast4, c.Type
	switch c.Status {
	case "FROZEN":
		f.Values["advice"] = "It is frozen, so every payment is declined; you can unfreeze it yourself in the app (Card, then unfreeze) and payments resume at once."
	case "BLOCKED":
		f.Values["advice"] = "It is blocked, which is permanent; please order a replacement card in the app."
	case "ACTIVE":
		f.Values["advice"] = "It is active; if a payment was declined, please send us the date, the amount and the merchant so that we can look at that payment."
	default:
		f.Values["advice"] = "Its state is " + c.Status + "."
	}
	f.Summary = cardSummary(c.PanLast4, c.Type, c.Status)
	f.Events = append(f.Events, casefile.Event{Time: c.OrderedAt, Source: "card", Text: "card ending " + c.PanLast4 + " ordered (" + c.Type + ")", Key: "card:" + c.ID})
	return nil
}

func orText(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// readableTime writes a gateway timestamp the way the screens show one
// ("2026-11-20 18:00 UTC"): facts and drafts are read by agents and sent
// to customers, who should never see "2026-11-20T18:00:00Z". It reads
// times as the screens do (ledger.ParseTime); anything else is kept as it
// came.
func readableTime(gateway string) string {
	t, ok := ledger.ParseTime(gateway)
	if !ok {
		return gateway
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}
