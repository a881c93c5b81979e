package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"time"
)

// A reproduction fixture puts a customer's state, as a support case saw
// it (its personal values already replaced by stand-ins), on one of the
// sandbox's demo users, so that engineering reproduces a ticket without
// the customer's data: cardterm support reproduce writes one, cardterm
// sandbox --fixture loads it. It is an ordinary fixture (version 1).

// Repro is the customer's state to reproduce.
type Repro struct {
	// US puts it on a US user of the demo tenant, else an EU one; the
	// customer's own tenant is never copied.
	US bool
	// Avoid are user ids the stand-in must not be (the customer's own,
	// when the customer is a demo user).
	Avoid []string
	// Verification is the identity verification state; "" keeps the
	// stand-in's.
	Verification string
	Card         *ReproCard
	// NoCard says the case found no card: the stand-in is given none.
	NoCard bool
	Sets   []ReproSet
	Audit  []ReproAudit
	// Wallets, when kept, replace the stand-in's; Transactions, when
	// kept, are its only card transactions (fixture_repro_money.go).
	Wallets      *ReproWallets
	Transactions []ReproTransaction
}

// ReproCard is a card's state, without its holder's name.
type ReproCard struct {
	ID, Status, Type, Last4, Expiry, OrderedAt string
}

// ReproSet is one consent set; it is linked to the stand-in when Linked.
type ReproSet struct {
	ID, OnboardingID, Policy string
	Linked                   bool
	CompletedAt              *time.Time
	CreatedAt, UpdatedAt     time.Time
	Consents                 []ReproConsent
}

// ReproConsent is one consent record.
type ReproConsent struct {
	ID, Type, Status, ClientID string
	CreatedAt, UpdatedAt       time.Time
	Superseded                 bool
}

// ReproAudit is one audit record.
type ReproAudit struct {
	ID, Action, SetID, ClientID string
	At                          time.Time
	BeforeType, BeforeStatus    string // "" when the record has no before
	AfterType, AfterStatus      string
}

// StandIn is the demo user a reproduction is put on.
type StandIn struct{ ID, Username string }

// WriteRepro writes r as a fixture on a user of the sandbox's demo tenant
// (DemoClientKey) in r's region that is not in r.Avoid; the fixture is
// checked against a fresh sandbox first.
func WriteRepro(w io.Writer, r Repro) (StandIn, error) {
	cred, ok := credByKey(DemoClientKey)
	if !ok {
		return StandIn{}, errors.New("the sandbox has no demo tenant to put a reproduction on")
	}
	region := "eu"
	if r.US {
		region = "us"
	}
	var stand *seedUser
	users := seedUsers.get()
	for i, u := range users {
		if u.tenant == cred.Tenant && u.env == cred.Environment && u.region == region && !slices.Contains(r.Avoid, DemoUserID(u.username)) {
			stand = &users[i]
			break
		}
	}
	if stand == nil {
		return StandIn{}, fmt.Errorf("the sandbox has no other demo user of tenant %s in region %s to put it on", cred.Tenant, region)
	}
	in := StandIn{ID: DemoUserID(stand.username), Username: stand.username}
	f := &fixture{Format: fixtureFormat, Version: fixtureVersion}
	if r.Card != nil || r.NoCard || r.Verification != "" || r.Wallets != nil || len(r.Transactions) > 0 {
		f.Users = append(f.Users, reproUser(in, stand, r))
	}
	if len(r.Sets) > 0 {
		f.Consent = append(f.Consent, reproConsent(cred, region, in.ID, r))
	}
	var buf bytes.Buffer
	if err := writeFixture(&buf, f); err != nil {
		return in, err
	}
	if err := CheckFixture(bytes.NewReader(buf.Bytes())); err != nil {
		return in, fmt.Errorf("the reproduction does not load: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return in, err
}

func reproUser(in StandIn, stand *seedUser, r Repro) fixtureUser {
	u := fixtureUser{ID: in.ID, VerificationState: orText(r.Verification, stand.verification)}
	if c := r.Card; c != nil {
		u.Card = &cardRecord{ID: orText(c.ID, "card-"+in.ID[:8]), HolderName: "STAND-IN HOLDER", Expiry: c.Expiry, Last4: c.Last4,
			Status: c.Status, Type: c.Type, OrderedAt: c.OrderedAt}
		u.CardsIssued = 1
	}
	u.Wallets = reproWallets(r.Wallets)
	u.Transactions, u.NoSeededTransactions = reproTransactions(r.Transactions), len(r.Transactions) > 0
	return u
}

func reproConsent(cred Credential, region, userID string, r Repro) fixtureConsent {
	out := fixtureConsent{Tenant: cred.Tenant, Environment: cred.Environment, Region: region, Created: len(r.Sets)}
	for _, s := range r.Sets {
		set := fixtureConsentSet{ID: s.ID, OnboardingID: s.OnboardingID, TenantID: cred.Tenant, PolicyType: s.Policy,
			CompletedAt: s.CompletedAt, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, Metadata: map[string]any{}}
		if s.Linked {
			id := userID
			set.UserID = &id
		}
		for _, c := range s.Consents {
			set.Consents = append(set.Consents, fixtureConsentRecord{ID: c.ID, Type: c.Type, Status: c.Status,
				Metadata:  &consentMetadataRecord{Timestamp: c.UpdatedAt.Format(time.RFC3339), ClientID: c.ClientID},
				CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt, Superseded: c.Superseded})
		}
		out.Sets = append(out.Sets, set)
	}
	for _, a := range r.Audit {
		rec := fixtureAudit{ID: a.ID, Action: a.Action, SetID: a.SetID, At: a.At,
			After:    consentStateRecord{ConsentType: a.AfterType, ConsentStatus: a.AfterStatus},
			Metadata: consentMetadataRecord{Timestamp: a.At.Format(time.RFC3339), ClientID: a.ClientID}}
		if a.BeforeType != "" {
			rec.Before = &consentStateRecord{ConsentType: a.BeforeType, ConsentStatus: a.BeforeStatus}
		}
		out.Audit = append(out.Audit, rec)
	}
	return out
}

func orText(v, otherwise string) string {
	if v == "" {
		return otherwise
	}
	return v
}

// CheckFixture reads a fixture and applies it to a fresh sandbox: nil
// when it loads, else what is wrong and where.
func CheckFixture(r io.Reader) error {
	f, err := decodeFixture(r)
	if err == nil {
		err = New(Options{}).applyFixture(f)
	}
	return err
}

// loadFixture applies a checked fixture at start.
func (s *Server) loadFixture(data []byte) {
	f, err := decodeFixture(bytes.NewReader(data))
	if err == nil {
		err = s.applyFixture(f)
	}
	if err != nil {
		slog.Error("sandbox: the fixture does not apply", "err", err)
	}
}
