package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// cardJSON is the wire form of the interface's Card, plus one field the
// interface does not show (network), so clients' tolerant readers get exercised.
type cardJSON struct {
	ID         string `json:"id"`
	HolderName string `json:"holderName"`
	ExpiryDate string `json:"expiryDate"`
	PanLast4   string `json:"panLast4"`
	Status     string `json:"status"`
	Type       string `json:"type"`
	OrderedAt  string `json:"orderedAt"`
	Network    string `json:"network"`
}

func (cr *cardRecord) toJSON() cardJSON {
	return cardJSON{cr.ID, cr.HolderName, cr.Expiry, cr.Last4, cr.Status, cr.Type, cr.OrderedAt, "VISA"}
}

// Card statuses and types.
const (
	cardActive  = "ACTIVE"
	cardFrozen  = "FROZEN"
	cardBlocked = "BLOCKED"
)

var cardTypes = []string{"VIRTUAL", "PHYSICAL", "METAL"}

// success is the answer {"success": true}: a struct the compiler lays
// out, where a map would be built before main on every start.
var success = struct {
	Success bool `json:"success"`
}{true}

// cardStatus: GET /v1/card/status.
func (s *Server) cardStatus(c *call) {
	c.answerFound("Card not found", func() any {
		if cr := c.user.Card; cr != nil {
			return cr.toJSON()
		}
		return nil
	})
}

// cardFreeze: POST /v1/card/freeze, ACTIVE -> FROZEN.
func (s *Server) cardFreeze(c *call) {
	s.moveCard(c, cardFrozen, WebhookEventCardFrozen, func(from string) string {
		switch from {
		case cardActive:
			return ""
		case cardFrozen:
			return "Card is already frozen"
		case cardBlocked:
			return "Card is blocked and cannot be frozen"
		}
		return "Card cannot be frozen in status " + from
	})
}

// cardUnfreeze: POST /v1/card/unfreeze, FROZEN -> ACTIVE; ACTIVE and
// BLOCKED answer 400 "Card is not frozen".
func (s *Server) cardUnfreeze(c *call) {
	s.moveCard(c, cardActive, WebhookEventCardUnfrozen, func(from string) string {
		if from == cardFrozen {
			return ""
		}
		return "Card is not frozen"
	})
}

// moveCard puts the user's card in status to and emits event, unless the
// card is missing (404) or refusal names why it cannot leave its status
// (400): the one path of freeze and unfreeze.
func (s *Server) moveCard(c *call, to, event string, refusal func(from string) string) {
	s.mu.Lock()
	status, msg := http.StatusOK, ""
	if cr := c.user.Card; cr == nil {
		status, msg = http.StatusNotFound, "Card not found"
	} else if msg = refusal(cr.Status); msg != "" {
		status = http.StatusBadRequest
	} else {
		cr.Status = to
		s.keepUserLocked(c.user)
		s.emitCardLocked(c.be, c.user, event)
	}
	s.mu.Unlock()
	c.succeedUnless(status, msg)
}

// cardOrder: POST /v1/card/order {type}; allowed when the user has no card
// or only a BLOCKED one, which the new ACTIVE card replaces.
func (s *Server) cardOrder(c *call) {
	var in struct {
		Type string `json:"type"`
	}
	if !c.decode(&in) {
		return
	}
	typ := strings.ToUpper(strings.TrimSpace(in.Type))
	if typ == "" {
		typ = "VIRTUAL"
	}
	valid := false
	for _, t := range cardTypes {
		valid = valid || t == typ
	}
	if !valid {
		c.fail(http.StatusUnprocessableEntity, fmt.Sprintf("Invalid card type %q: use VIRTUAL, PHYSICAL or METAL", in.Type))
		return
	}
	s.mu.Lock()
	u := c.user
	if u.Card != nil && u.Card.Status != cardBlocked {
		s.mu.Unlock()
		c.fail(http.StatusBadRequest, "User already has a card")
		return
	}
	issueCard(u, typ, s.now())
	s.keepUserLocked(u)
	s.emitCardIssuedLocked(c.be, u)
	s.mu.Unlock()
	c.json(http.StatusOK, success)
}

// issueCard gives u a new ACTIVE card of cardType when they have none
// or only a BLOCKED one (POST /v1/card/order, or a paid card order) and returns its id
// ("" when no card was issued). Call with s.mu held.
func issueCard(u *userRecord, cardType string, at time.Time) string {
	if cardType == "" || (u.Card != nil && u.Card.Status != cardBlocked) {
		return ""
	}
	n := fmt.Sprint(u.cardSeq)
	u.cardSeq++
	id := uuidFrom("card", u.Username, n)
	at = at.UTC()
	u.Card = &cardRecord{
		ID: id, HolderName: strings.ToUpper(u.FirstName + " " + u.LastName),
		Expiry: at.AddDate(4, 0, 0).Format("2006/01"), Last4: fmt.Sprintf("%04d", hashNum(id)%10000),
		Status: cardActive, Type: cardType, OrderedAt: at.Format(time.RFC3339),
	}
	return id
}

// hashNum turns a seeded id into a stable number (for last4 digits).
func hashNum(s string) int {
	h := 0
	for _, r := range s {
		h = (h*31 + int(r)) % 1000003
	}
	return h
}
