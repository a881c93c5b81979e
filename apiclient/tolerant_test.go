package apiclient

import (
	"context"
	"encoding/json"
	"testing"
)

func TestUserTolerantRead(t *testing.T) {
	rec := newRecorder(t)
	rec.json("GET /v1/user", 200, `{
		"id":"u-1","firstName":"Alice","lastName":"Doe","email":"alice@demo.test",
		"verificationState":"SUPER_VERIFIED",
		"addressLine2":null,"usState":"CA","ssn":"***-**-1234",
		"phoneNumber":5551234,
		"loyaltyTier":"gold","flags":{"beta":true},
		"CITY":"Lisbon"
	}`)
	c := testClient(rec)
	u, err := c.User(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if u.ID != "u-1" || u.FirstName != "Alice" || u.VerificationState != "SUPER_VERIFIED" {
		t.Errorf("typed fields: %+v", u)
	}
	if u.AddressLine2 != nil || u.USState == nil || *u.USState != "CA" || u.SSN == nil || *u.SSN != "***-**-1234" {
		t.Errorf("nullable fields: %+v", u)
	}
	if u.City != "Lisbon" {
		t.Errorf("case-insensitive member not matched: %q", u.City)
	}
	// A member of the wrong type stays zero and is kept raw.
	if u.PhoneNumber != "" || string(u.Extra["phoneNumber"]) != "5551234" {
		t.Errorf("mistyped member: %q, extra %s", u.PhoneNumber, u.Extra["phoneNumber"])
	}
	if string(u.Extra["loyaltyTier"]) != `"gold"` || string(u.Extra["flags"]) != `{"beta":true}` {
		t.Errorf("Extra = %v", u.Extra)
	}
	if len(u.Extra) != 3 {
		t.Errorf("Extra has %d members: %v", len(u.Extra), u.Extra)
	}
}

func TestCardTolerantRead(t *testing.T) {
	rec := newRecorder(t)
	rec.json("GET /v1/card/status", 200, `{"id":"c","status":"LOST_IN_SPACE","type":"TITANIUM","panLast4":"0001","network":"VISA","limits":[1,2]}`)
	c := testClient(rec)
	card, err := c.CardStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if card.Status != "LOST_IN_SPACE" || card.Type != "TITANIUM" || card.PanLast4 != "0001" {
		t.Errorf("card = %+v", card)
	}
	if string(card.Extra["network"]) != `"VISA"` || string(card.Extra["limits"]) != `[1,2]` || len(card.Extra) != 2 {
		t.Errorf("Extra = %v", card.Extra)
	}
	// No extras: Extra stays nil.
	var plain Card
	if err := json.Unmarshal([]byte(cardJSON), &plain); err != nil || plain.Extra != nil {
		t.Errorf("plain card: %+v, %v", plain, err)
	}
}

func TestDecodeWithExtraGeneric(t *testing.T) {
	type inner struct {
		Symbol string `json:"symbol"`
	}
	type Base struct {
		ID string `json:"id"`
	}
	type thing struct {
		Base
		Name    string           `json:"name,omitempty"`
		Count   int              `json:"count"`
		Tokens  map[string]inner `json:"tokens"`
		Plain   bool
		skipped string
		Extra   Extra `json:"-"`
	}
	var v thing
	err := decodeWithExtra([]byte(`{"id":"x","name":"n","count":"three","tokens":{"usdc":{"symbol":"usdc","decimals":6}},"Plain":true,"skipped":"s","Extra":1}`), &v, &v.Extra)
	if err != nil {
		t.Fatal(err)
	}
	if v.ID != "x" || v.Name != "n" || v.Count != 0 || v.Tokens["usdc"].Symbol != "usdc" || !v.Plain || v.skipped != "" {
		t.Errorf("v = %+v", v)
	}
	for _, k := range []string{"count", "skipped", "Extra"} {
		if _, ok := v.Extra[k]; !ok {
			t.Errorf("Extra lacks %q: %v", k, v.Extra)
		}
	}
	if len(v.Extra) != 3 {
		t.Errorf("Extra = %v", v.Extra)
	}
	if err := decodeWithExtra([]byte(`[1]`), &v, &v.Extra); err == nil {
		t.Error("an array decoded as an object")
	}
}

func TestFlexSeconds(t *testing.T) {
	for in, want := range map[string]flexSeconds{`21600`: 21600, `"60"`: 60, `1.5`: 1, `null`: 0, `"x"`: 0, `{}`: 0} {
		var f flexSeconds
		if err := json.Unmarshal([]byte(in), &f); err != nil || f != want {
			t.Errorf("%s: %d, %v", in, f, err)
		}
	}
}
