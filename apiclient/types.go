package apiclient

import (
	"encoding/json"
	"time"
)

// Extra keeps the fields a response carried that this client has no typed
// field for, so screens can still show them (tolerant reader).
type Extra map[string]json.RawMessage

// Verification states of a user, as the interface names them. Other values
// may arrive; they are kept as they are and shown verbatim.
const (
	VerificationUnverified = "UNVERIFIED"
	VerificationPending    = "PENDING"
	VerificationVerified   = "VERIFIED"
	VerificationRejected   = "REJECTED"
)

// User is the signed-in card holder's profile (GET /v1/user).
type User struct {
	ID                   string  `json:"id"`
	FirstName            string  `json:"firstName"`
	LastName             string  `json:"lastName"`
	DateOfBirth          string  `json:"dateOfBirth"`
	Email                string  `json:"email"`
	VerificationState    string  `json:"verificationState"`
	PhoneNumber          string  `json:"phoneNumber"`
	PhoneCountryCode     string  `json:"phoneCountryCode"`
	AddressLine1         string  `json:"addressLine1"`
	AddressLine2         *string `json:"addressLine2"`
	City                 string  `json:"city"`
	Zip                  string  `json:"zip"`
	CountryOfResidence   string  `json:"countryOfResidence"`
	CountryOfNationality string  `json:"countryOfNationality"`
	USState              *string `json:"usState"`
	SSN                  *string `json:"ssn"`
	CreatedAt            string  `json:"createdAt"`
	// Extra holds fields the interface does not show.
	Extra Extra `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// Card statuses and types, as the interface names them.
const (
	CardActive  = "ACTIVE"
	CardFrozen  = "FROZEN"
	CardBlocked = "BLOCKED"

	CardVirtual  = "VIRTUAL"
	CardPhysical = "PHYSICAL"
	CardMetal    = "METAL"
)

// Card is the user's debit card (GET /v1/card/status). The full number, CVV
// and PIN are never returned by the gateway.
type Card struct {
	ID         string `json:"id"`
	HolderName string `json:"holderName"`
	ExpiryDate string `json:"expiryDate"`
	PanLast4   string `json:"panLast4"`
	Status     string `json:"status"`
	Type       string `json:"type"`
	OrderedAt  string `json:"orderedAt"`
	Extra      Extra  `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// SessionKind tells how a session was obtained, which decides how it ends:
// a password session logs out, an OAuth session is revoked.
type SessionKind int

const (
	// SessionPassword came from POST /v1/auth/login.
	SessionPassword SessionKind = iota
	// SessionOAuth came from the OAuth code exchange.
	SessionOAuth
)

// Session is the signed-in state. It lives in memory only and is never
// written anywhere.
type Session struct {
	AccessToken  string
	RefreshToken string
	// ExpiresAt is when the access token stops working (now + expiresIn).
	ExpiresAt time.Time
	Kind      SessionKind
	// Username is what the user signed in as, for the status bar.
	Username string
}

// Valid reports whether the session holds an access token.
func (s Session) Valid() bool { return s.AccessToken != "" }

// FieldError is one entry of a validation error's field list.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}
