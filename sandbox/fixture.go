package sandbox

import (
	"encoding/json"
	"time"
)

// A fixture is the state a sandbox holds beyond its seed: what `cardterm
// sandbox export` writes, what `import` reads, and what a data directory
// keeps record by record (store.go). The seed is deterministic, so a
// fixture lists only what a partner's requests changed, each part whole:
// a user (card, verification, wallets, delegation, orders), a whitelist
// entry, a partner's webhooks, a backend's consent data, a PIN. Anything
// not listed is as seeded. README.md documents the shape; its names are
// stable (version 1).

// fixtureFormat and fixtureVersion mark a fixture file and a data
// directory as cardterm's.
const (
	fixtureFormat  = "cardterm-sandbox"
	fixtureVersion = 1
)

// fixture is a whole fixture file.
type fixture struct {
	Format   string           `json:"format"`
	Version  int              `json:"version"`
	Users    []fixtureUser    `json:"users"`
	Webhooks []fixturePartner `json:"webhooks"`
	Consent  []fixtureConsent `json:"consent"`
	PINs     []fixturePIN     `json:"pins"`
	// Sessions are the sign-ins a data directory keeps; an export leaves
	// them out (fixture_sessions.go).
	Sessions []fixtureSession `json:"sessions,omitempty"`
}

// fixtureUser is one seeded user as requests left them.
type fixtureUser struct {
	ID                string             `json:"id"`
	Username          string             `json:"username"`
	VerificationState string             `json:"verificationState"`
	Card              *cardRecord        `json:"card"`
	CardsIssued       int                `json:"cardsIssued"`
	Wallets           *fixtureWallets    `json:"wallets,omitempty"`
	Delegation        *fixtureDelegation `json:"delegation,omitempty"`
	Orders            *fixtureOrders     `json:"orders,omitempty"`
	// Transactions are the simulated ones (simulate.go), oldest first.
	Transactions []transactionRecord `json:"transactions,omitempty"`
	// NoSeededTransactions hides the seeded history, so that Transactions
	// are the user's only ones (a reproduction).
	NoSeededTransactions bool `json:"noSeededTransactions,omitempty"`
}

// fixtureWallets is a user's wallets. Whitelist is filled in a fixture
// file; a data directory keeps each entry as its own record instead.
type fixtureWallets struct {
	Internal         []*internalWallet          `json:"internal"`
	Linked           []string                   `json:"linked"`
	External         []externalWallet           `json:"external"`
	Credit           *fixtureCredit             `json:"credit"`
	History          map[string][]historyRecord `json:"history"`
	WhitelistCreated int                        `json:"whitelistCreated"`
	Whitelist        []*whitelistRecord         `json:"whitelist,omitempty"`
}

// fixtureCredit is the credit wallet; Balance is USDC as decimal text.
type fixtureCredit struct {
	ID           string    `json:"id"`
	Balance      string    `json:"balance"`
	Withdrawable bool      `json:"isWithdrawable"`
	PendingUntil time.Time `json:"pendingUntil,omitzero"`
	Withdrawals  int       `json:"withdrawals"`
}

// fixtureDelegation is a user's delegation tokens and faucet grant.
type fixtureDelegation struct {
	Tokens []fixtureDelegationToken `json:"tokens"`
	Grant  *fixtureGrant            `json:"grant"`
}

type fixtureDelegationToken struct {
	Token  string    `json:"token"`
	Nonce  string    `json:"nonce"`
	Issued time.Time `json:"issuedAt"`
	Used   bool      `json:"used"`
}

type fixtureGrant struct {
	Network string    `json:"network"`
	Address string    `json:"address"`
	TxHash  string    `json:"txHash"`
	At      time.Time `json:"at"`
}

// fixtureOrders is a user's card orders.
type fixtureOrders struct {
	Created int            `json:"created"`
	Orders  []fixtureOrder `json:"orders"`
}

type fixtureOrder struct {
	ID             string    `json:"id"`
	RequestID      string    `json:"requestId"`
	ProductID      string    `json:"productId"`
	PaymentMethod  string    `json:"paymentMethod"`
	CreatedAt      time.Time `json:"createdAt"`
	Destination    string    `json:"destinationAddress"`
	ChainID        string    `json:"destinationChainId"`
	TokenAddress   string    `json:"destinationTokenAddress"`
	Settled        bool      `json:"settled"`
	CardID         string    `json:"cardId,omitzero"`
	ReportedStatus string    `json:"reportedStatus"`
}

// fixturePartner is one partner's (tenant + environment) webhooks.
type fixturePartner struct {
	Tenant         string           `json:"tenant"`
	Environment    string           `json:"environment"`
	Created        int              `json:"created"`
	Configurations []fixtureWebhook `json:"configurations"`
	// Events are the partner's event history, oldest first (event_history.go).
	Events []keptEvent `json:"events,omitempty"`
}

type fixtureWebhook struct {
	ID           string                   `json:"id"`
	Name         string                   `json:"name"`
	URL          string                   `json:"url"`
	APIKey       string                   `json:"apiKey"`
	EventTypes   []string                 `json:"eventTypes"`
	Active       bool                     `json:"isActive"`
	Metadata     json.RawMessage          `json:"metadata"`
	CreatedAt    time.Time                `json:"createdAt"`
	UpdatedAt    time.Time                `json:"updatedAt"`
	LastDelivery *webhookDeliveryLog      `json:"lastDelivery,omitempty"`
	Deliveries   []*webhookDeliveryRecord `json:"deliveries"`
}

// fixtureConsent is one backend's consent sets and audit trail.
type fixtureConsent struct {
	Tenant      string              `json:"tenant"`
	Environment string              `json:"environment"`
	Region      string              `json:"region"`
	Created     int                 `json:"created"`
	Sets        []fixtureConsentSet `json:"sets"`
	Audit       []fixtureAudit      `json:"audit"`
}

type fixtureConsentSet struct {
	ID           string                 `json:"consentSetId"`
	OnboardingID string                 `json:"onboardingId"`
	TenantID     string                 `json:"tenantId"`
	PolicyType   string                 `json:"policyType"`
	UserID       *string                `json:"userId"`
	CompletedAt  *time.Time             `json:"completedAt"`
	CreatedAt    time.Time              `json:"createdAt"`
	UpdatedAt    time.Time              `json:"updatedAt"`
	Consents     []fixtureConsentRecord `json:"consents"`
	Metadata     map[string]any         `json:"metadata"`
}

type fixtureConsentRecord struct {
	ID         string                 `json:"consentId"`
	Type       string                 `json:"consentType"`
	Status     string                 `json:"consentStatus"`
	Metadata   *consentMetadataRecord `json:"metadata"`
	CreatedAt  time.Time              `json:"createdAt"`
	UpdatedAt  time.Time              `json:"updatedAt"`
	Superseded bool                   `json:"superseded"`
}

type fixtureAudit struct {
	ID       string                `json:"auditId"`
	Action   string                `json:"action"`
	SetID    string                `json:"consentSetId"`
	At       time.Time             `json:"at"`
	Before   *consentStateRecord   `json:"before"`
	After    consentStateRecord    `json:"after"`
	Metadata consentMetadataRecord `json:"metadata"`
}

// fixturePIN is a PIN set on the hosted set-PIN page (a sandbox value).
type fixturePIN struct {
	CardID string `json:"cardId"`
	PIN    string `json:"pin"`
}
