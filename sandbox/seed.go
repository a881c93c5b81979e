package sandbox

import (
	"crypto/sha1"
	"fmt"
	"strings"
)

// Demo credentials of the acme sandbox environment: the ones `go run .` and
// the demos use. They are sandbox values, safe to print.
const (
	DemoClientKey = "ck_sandbox_acme"
	DemoSecretKey = "sk_sandbox_acme"
)

// demoPassword is the password of every seeded user.
const demoPassword = "demo-pass"

// Credential is one tenant environment's client credentials, exported so the
// app and `cardterm sandbox` can show what to connect with.
type Credential struct {
	Tenant      string // tenant name, e.g. "acme"
	Environment string // "sandbox" or "production"
	ClientKey   string // x-client-key
	SecretKey   string // x-secret-key (sandbox demo value)
	ClientID    string // X-Client-ID / OAuth client_id (the client key is accepted too)
}

var credentials = []Credential{
	{Tenant: "acme", Environment: "sandbox", ClientKey: DemoClientKey, SecretKey: DemoSecretKey, ClientID: "acme-sandbox"},
	{Tenant: "acme", Environment: "production", ClientKey: "ck_live_acme", SecretKey: "sk_live_acme", ClientID: "acme-live"},
	{Tenant: "globex", Environment: "sandbox", ClientKey: "ck_sandbox_globex", SecretKey: "sk_sandbox_globex", ClientID: "globex-sandbox"},
}

// Credentials lists every tenant environment the sandbox knows, so callers
// can print or pick them without hard-coding keys.
func Credentials() []Credential { return append([]Credential(nil), credentials...) }

// credByKey finds a credential by client key.
func credByKey(key string) (Credential, bool) {
	for _, c := range credentials {
		if c.ClientKey == key {
			return c, true
		}
	}
	return Credential{}, false
}

// credByKeyOrID finds a credential by client key or client id (X-Client-ID,
// OAuth client_id).
func credByKeyOrID(v string) (Credential, bool) {
	for _, c := range credentials {
		if c.ClientKey == v || c.ClientID == v {
			return c, true
		}
	}
	return Credential{}, false
}

// DemoUser describes one seeded account of the acme sandbox environment (the
// one DemoClientKey reaches), for the sign-in hints and `cardterm sandbox`.
type DemoUser struct {
	Username string
	Password string
	Region   string // "eu", or "us" (send x-us-env: true)
	Summary  string // what the account shows off
}

// DemoUsers lists the acme sandbox accounts in a fixed order; the first one
// is the account the sign-in form comes prefilled with.
func DemoUsers() []DemoUser {
	var out []DemoUser
	for _, u := range seedUsers.get() {
		if u.tenant == "acme" && u.env == "sandbox" {
			out = append(out, DemoUser{Username: u.username, Password: demoPassword, Region: u.region, Summary: u.summary})
		}
	}
	return out
}

// backendKey names one backend: all state lives in exactly one of them.
type backendKey struct{ Tenant, Env, Region string }

func (k backendKey) String() string { return k.Tenant + "/" + k.Env + "/" + k.Region }

// backend holds the users (and everything they own) of one tenant
// environment in one region.
type backend struct {
	key    backendKey
	users  map[string]*userRecord // by id
	byName map[string]*userRecord // by lower-case username
	order  []*userRecord          // seed order, for the sign-in hints
	// webhooks are the partner's webhook configurations, kept on the
	// partner's eu backend only (seed_webhooks.go, webhookPartnerOf).
	webhooks *webhookPartner
	// consent holds the consent sets and audit trail, seeded on first
	// use (seed_consent.go, consentOf).
	consent *consentStore
}

// userRecord is a stored user. Optional fields are pointers so they encode as null.
type userRecord struct {
	ID, Username, Password                  string
	FirstName, LastName, DateOfBirth, Email string
	Verification, Phone, PhoneCC, Addr1     string
	Addr2                                   *string
	City, Zip, CountryRes, CountryNat       string
	USState, SSN                            *string // SSN stored in full, returned masked
	CreatedAt                               string
	Card                                    *cardRecord
	cardSeq                                 int // cards ordered so far, for deterministic ids
	// wallets is seeded lazily by walletsOf (seed_wallets.go).
	wallets *walletState
	// delegation is seeded lazily by delegationOf (seed_delegation.go).
	delegation *delegationState
	// orders is created lazily by ordersOf (seed_orders.go).
	orders *ordBook
	// simulated holds the transactions POST /sandbox/simulate made, oldest
	// first (simulate.go).
	simulated []transactionRecord
	// appendedTransactions (newest last) and earlierTransactions (oldest
	// last) are added to the seeded history while the sandbox runs
	// (transactions_append.go); not stored in a data directory.
	appendedTransactions, earlierTransactions []transactionRecord
	// noSeededTransactions hides the seeded history: a reproduction's
	// user shows the case's transactions alone (fixture_repro.go).
	noSeededTransactions bool
}

// cardRecord is a stored card; its tags are its stored (fixture) form.
type cardRecord struct {
	ID         string `json:"id"`
	HolderName string `json:"holderName"`
	Expiry     string `json:"expiryDate"`
	Last4      string `json:"panLast4"`
	Status     string `json:"status"`
	Type       string `json:"type"`
	OrderedAt  string `json:"orderedAt"`
}

// seedCard and seedUser are the literal seed table.
type seedCard struct{ status, typ, last4, expiry, orderedAt string }

type seedUser struct {
	tenant, env, region     string
	username, first, last   string
	verification            string
	dob, phoneCC, phone     string
	addr1                   string
	addr2                   *string
	city, zip, country, nat string
	usState, ssn            *string
	createdAt               string
	holder                  string // card holder name; "" = upper(first last)
	card                    *seedCard
	summary                 string
}

func strp(s string) *string { return &s }

// Hostile strings for mallory: a terminal that renders them raw would change
// colour, show a fake link, write the clipboard, rewrite the line or flip text.
const (
	malloryFirst = "Mallory\x1b[31m RED\x1b[0m\u200b"
	malloryLast  = "\x1b]8;;https://evil.example/\x07Click me\x1b]8;;\x07 \u202eecilA"
	malloryCity  = "Paris\r\x1b]52;c;cm0gLXJmIH4=\x07Evil\a"
)

// seedUsers are the demo users, made at first use: their optional fields
// are pointers, which allocate, and a package value is built before main
// on every start.
var seedUsers = lazy[[]seedUser]{build: func() []seedUser {
	return []seedUser{
		{tenant: "acme", env: "sandbox", region: "eu", username: "alice@demo.test", first: "Alice", last: "Martin", verification: "VERIFIED",
			dob: "1990-04-12", phoneCC: "+33", phone: "612345678", addr1: "12 Rue des Lilas", addr2: strp("Apt 4B"), city: "Paris", zip: "75011", country: "FR", nat: "FR",
			createdAt: "2024-01-15T09:30:00+01:00", card: &seedCard{"ACTIVE", "VIRTUAL", "4242", "2029/08", "2024-01-20T10:00:00Z"},
			summary: "VERIFIED, ACTIVE virtual card (the default demo account)"},
		{tenant: "acme", env: "sandbox", region: "eu", username: "frank@demo.test", first: "Frank", last: "Osei", verification: "VERIFIED",
			dob: "1985-11-02", phoneCC: "+49", phone: "1512345678", addr1: "Torstrasse 101", city: "Berlin", zip: "10119", country: "DE", nat: "GH",
			createdAt: "2023-06-01T14:05:00+02:00", card: &seedCard{"FROZEN", "PHYSICAL", "1881", "2028/11", "2023-06-03T08:15:00Z"},
			summary: "VERIFIED, FROZEN physical card (unfreeze it)"},
		{tenant: "acme", env: "sandbox", region: "eu", username: "bruno@demo.test", first: "Bruno", last: "Keller", verification: "VERIFIED",
			dob: "1978-02-28", phoneCC: "+41", phone: "791234567", addr1: "Bahnhofstrasse 7", addr2: strp("3. Stock"), city: "Zurich", zip: "8001", country: "CH", nat: "CH",
			createdAt: "2022-09-12T11:00:00+02:00", card: &seedCard{"BLOCKED", "METAL", "0005", "2027/03", "2022-09-14T09:00:00Z"},
			summary: "VERIFIED, BLOCKED metal card (order a replacement)"},
		{tenant: "acme", env: "sandbox", region: "eu", username: "nora@demo.test", first: "Nora", last: "Lind", verification: "VERIFIED",
			dob: "1995-07-19", phoneCC: "+46", phone: "701234567", addr1: "Drottninggatan 55", city: "Stockholm", zip: "11121", country: "SE", nat: "SE",
			createdAt: "2024-05-20T16:45:00+02:00",
			summary:   "VERIFIED, no card yet (order one)"},
		{tenant: "acme", env: "sandbox", region: "eu", username: "umar@demo.test", first: "Umar", last: "Haddad", verification: "UNVERIFIED",
			dob: "2000-01-01", phoneCC: "+31", phone: "612345679", addr1: "Prinsengracht 263", city: "Amsterdam", zip: "1016 GV", country: "NL", nat: "MA",
			createdAt: "2025-02-03T10:10:00+01:00",
			summary:   "UNVERIFIED: card and wallet operations answer 403"},
		{tenant: "acme", env: "sandbox", region: "eu", username: "pia@demo.test", first: "Pia", last: "Novak", verification: "PENDING",
			dob: "1992-03-08", phoneCC: "+420", phone: "601234567", addr1: "Karlova 12", addr2: strp("Byt 7"), city: "Prague", zip: "11000", country: "CZ", nat: "CZ",
			createdAt: "2025-03-10T12:00:00+01:00",
			summary:   "verification PENDING, no card"},
		{tenant: "acme", env: "sandbox", region: "eu", username: "rex@demo.test", first: "Rex", last: "Stone", verification: "REJECTED",
			dob: "1980-12-24", phoneCC: "+44", phone: "7700900123", addr1: "221 Baker Street", city: "London", zip: "NW1 6XE", country: "GB", nat: "GB",
			createdAt: "2024-11-11T11:11:00+00:00",
			summary:   "verification REJECTED, no card"},
		{tenant: "acme", env: "sandbox", region: "eu", username: "lena@demo.test", first: "Lena", last: "Park", verification: "VERIFIED",
			dob: "1988-09-30", phoneCC: "+43", phone: "6641234567", addr1: "Mariahilfer Strasse 88", city: "Vienna", zip: "1070", country: "AT", nat: "KR",
			createdAt: "2023-02-14T08:00:00+01:00", card: &seedCard{"ACTIVE", "PHYSICAL", "7310", "2028/02", "2023-02-15T09:30:00Z"},
			summary: "VERIFIED, ACTIVE card, 5 wallets linked already (the maximum)"},
		{tenant: "acme", env: "sandbox", region: "eu", username: "faye@demo.test", first: "Faye", last: "Moreau", verification: "VERIFIED",
			dob: "1993-06-21", phoneCC: "+32", phone: "471234567", addr1: "Rue Neuve 3", addr2: strp("Boite 2"), city: "Brussels", zip: "1000", country: "BE", nat: "FR",
			createdAt: "2023-08-08T18:20:00+02:00", card: &seedCard{"ACTIVE", "VIRTUAL", "9876", "2029/01", "2023-08-09T07:45:00Z"},
			summary: "VERIFIED, ACTIVE card, gas faucet already used"},
		{tenant: "acme", env: "sandbox", region: "eu", username: "mallory@demo.test", first: malloryFirst, last: malloryLast, verification: "VERIFIED",
			dob: "1970-01-01", phoneCC: "+33", phone: "600000000", addr1: "1 Rue du Piratage", city: malloryCity, zip: "75001", country: "FR", nat: "FR",
			createdAt: "2024-04-01T00:00:00+02:00", holder: "MALLORY \x1b[5mROOT\x1b[0m", card: &seedCard{"ACTIVE", "VIRTUAL", "6666", "2030/04", "2024-04-01T09:00:00Z"},
			summary: "VERIFIED, ACTIVE card; name and city hold terminal escapes, bidi and zero-width text (sanitizer test)"},
		{tenant: "acme", env: "sandbox", region: "us", username: "sam@demo.test", first: "Sam", last: "Rivera", verification: "VERIFIED",
			dob: "1987-05-05", phoneCC: "+1", phone: "4155550123", addr1: "500 Market Street", addr2: strp("Suite 300"), city: "San Francisco", zip: "94105", country: "US", nat: "US",
			usState: strp("CA"), ssn: strp("123-45-6789"),
			createdAt: "2024-07-04T09:00:00-07:00", card: &seedCard{"ACTIVE", "VIRTUAL", "1776", "2029/07", "2024-07-05T16:00:00Z"},
			summary: "US resident (x-us-env: true), ACTIVE card, masked SSN"},
		{tenant: "acme", env: "production", region: "eu", username: "olga@acme.test", first: "Olga", last: "Petrova", verification: "VERIFIED",
			dob: "1984-10-10", phoneCC: "+371", phone: "21234567", addr1: "Brivibas iela 30", city: "Riga", zip: "LV-1050", country: "LV", nat: "LV",
			createdAt: "2023-03-03T10:00:00+02:00", card: &seedCard{"ACTIVE", "PHYSICAL", "3141", "2028/06", "2023-03-04T10:00:00Z"},
			summary: "acme production (ck_live_acme): VERIFIED, ACTIVE card"},
		{tenant: "globex", env: "sandbox", region: "eu", username: "gus@globex.test", first: "Gus", last: "Grant", verification: "VERIFIED",
			dob: "1975-08-15", phoneCC: "+353", phone: "851234567", addr1: "1 Grand Canal Square", city: "Dublin", zip: "D02 P820", country: "IE", nat: "IE",
			createdAt: "2024-10-01T09:00:00+01:00",
			summary:   "globex sandbox (ck_sandbox_globex): VERIFIED, no card"},
	}
}}

// uuidFrom derives a stable, well-formed UUID (version 5 layout) from parts,
// so seeded ids are the same on every run.
func uuidFrom(parts ...string) string {
	h := sha1.Sum([]byte(strings.Join(parts, "\x00")))
	h[6] = (h[6] & 0x0f) | 0x50
	h[8] = (h[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// seedBackends builds every backend (also the empty ones) with its users.
func seedBackends() map[backendKey]*backend {
	out := map[backendKey]*backend{}
	for _, c := range credentials {
		for _, region := range []string{"eu", "us"} {
			k := backendKey{c.Tenant, c.Environment, region}
			out[k] = &backend{key: k, users: map[string]*userRecord{}, byName: map[string]*userRecord{}}
		}
	}
	for _, s := range seedUsers.get() {
		be := out[backendKey{s.tenant, s.env, s.region}]
		u := &userRecord{
			ID: uuidFrom("user", s.username), Username: s.username, Password: demoPassword,
			FirstName: s.first, LastName: s.last, DateOfBirth: s.dob, Email: s.username,
			Verification: s.verification, Phone: s.phone, PhoneCC: s.phoneCC, Addr1: s.addr1, Addr2: s.addr2,
			City: s.city, Zip: s.zip, CountryRes: s.country, CountryNat: s.nat,
			USState: s.usState, SSN: s.ssn, CreatedAt: s.createdAt,
		}
		if s.card != nil {
			holder := s.holder
			if holder == "" {
				holder = strings.ToUpper(s.first + " " + s.last)
			}
			u.Card = &cardRecord{
				ID: uuidFrom("card", s.username, "0"), HolderName: holder, Expiry: s.card.expiry,
				Last4: s.card.last4, Status: s.card.status, Type: s.card.typ, OrderedAt: s.card.orderedAt,
			}
			u.cardSeq = 1
		}
		be.users[u.ID] = u
		be.byName[strings.ToLower(u.Username)] = u
		be.order = append(be.order, u)
	}
	return out
}
