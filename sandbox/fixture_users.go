package sandbox

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// userFixture is u's stored form. withWhitelist puts the whitelist in it
// (a fixture file); a data directory keeps the entries apart. Call with
// s.mu held; the result shares u's slices, so encode it before unlocking.
func userFixture(u *userRecord, withWhitelist bool) fixtureUser {
	out := fixtureUser{ID: u.ID, Username: u.Username, VerificationState: u.Verification, Card: u.Card, CardsIssued: u.cardSeq,
		Transactions: u.simulated, NoSeededTransactions: u.noSeededTransactions}
	if ws := u.wallets; ws != nil {
		w := &fixtureWallets{Internal: ws.internal, Linked: ws.linked, External: ws.external, History: ws.history,
			WhitelistCreated: ws.whitelistSeq}
		if cw := ws.credit; cw != nil {
			w.Credit = &fixtureCredit{ID: cw.ID, Balance: formatMicros(cw.Balance), Withdrawable: cw.IsWithdrawable,
				PendingUntil: cw.pendingUntil, Withdrawals: cw.withdrawals}
		}
		if withWhitelist {
			w.Whitelist = ws.whitelist
		}
		out.Wallets = w
	}
	if d := u.delegation; d != nil {
		fd := &fixtureDelegation{Tokens: []fixtureDelegationToken{}}
		for _, tok := range slices.Sorted(maps.Keys(d.tokens)) {
			t := d.tokens[tok]
			fd.Tokens = append(fd.Tokens, fixtureDelegationToken{Token: tok, Nonce: t.nonce, Issued: t.issued, Used: t.used})
		}
		if g := d.grant; g != nil {
			fd.Grant = &fixtureGrant{Network: g.network, Address: g.address, TxHash: g.txHash, At: g.at}
		}
		out.Delegation = fd
	}
	if b := u.orders; b != nil {
		fo := &fixtureOrders{Created: b.seq, Orders: []fixtureOrder{}}
		for _, o := range b.orders {
			fo.Orders = append(fo.Orders, fixtureOrder{ID: o.ID, RequestID: o.RequestID, ProductID: o.Product.ID,
				PaymentMethod: o.Method, CreatedAt: o.Created, Destination: o.Destination, ChainID: o.ChainID,
				TokenAddress: o.Token, Settled: o.settled, CardID: o.cardID, ReportedStatus: o.reported})
		}
		out.Orders = fo
	}
	return out
}

// seededUser finds a user of the seed by id on any backend.
func (s *Server) seededUser(id string) (*backend, *userRecord) {
	for _, be := range s.backends {
		if u := be.users[id]; u != nil {
			return be, u
		}
	}
	return nil, nil
}

// applyUser puts a checked fixture user in place of the seeded one. path
// names it in errors ("users[2]").
func (s *Server) applyUser(path string, in fixtureUser) error {
	_, u := s.seededUser(in.ID)
	switch {
	case u == nil:
		return fixtureProblem(path+".id", "%q is not a user of the sandbox's seed (the demo users are fixed; see cardterm sandbox)", in.ID)
	case in.Username != "" && !strings.EqualFold(in.Username, u.Username): // "" is the seed's user, unnamed
		return fixtureProblem(path+".username", "%q is not the username of user %s (%s)", in.Username, u.ID, u.Username)
	case !slices.Contains(verificationStates, in.VerificationState):
		return fixtureProblem(path+".verificationState", "must be one of %s", strings.Join(verificationStates, ", "))
	case in.CardsIssued < 0:
		return fixtureProblem(path+".cardsIssued", "must not be negative")
	}
	if c := in.Card; c != nil {
		switch {
		case c.ID == "":
			return fixtureProblem(path+".card.id", "is required")
		case !slices.Contains([]string{cardActive, cardFrozen, cardBlocked}, c.Status):
			return fixtureProblem(path+".card.status", "must be ACTIVE, FROZEN or BLOCKED, not %q", c.Status)
		case !slices.Contains(cardTypes, c.Type):
			return fixtureProblem(path+".card.type", "must be one of %s, not %q", strings.Join(cardTypes, ", "), c.Type)
		}
	}
	var wallets *walletState
	if in.Wallets != nil {
		var err error
		if wallets, err = walletsFromFixture(path+".wallets", *in.Wallets); err != nil {
			return err
		}
	}
	delegation, err := delegationFromFixture(path+".delegation", in.Delegation)
	if err != nil {
		return err
	}
	orders, err := ordersFromFixture(path+".orders", in.Orders)
	if err != nil {
		return err
	}
	u.Verification, u.Card, u.cardSeq = in.VerificationState, in.Card, in.CardsIssued
	u.wallets, u.delegation, u.orders = wallets, delegation, orders
	u.simulated, u.noSeededTransactions = simulatedFromFixture(in.Transactions), in.NoSeededTransactions
	return nil
}

// walletsFromFixture checks and builds a user's wallets.
func walletsFromFixture(path string, in fixtureWallets) (*walletState, error) {
	ws := &walletState{internal: in.Internal, linked: in.Linked, external: in.External, history: in.History,
		whitelistSeq: in.WhitelistCreated, whitelist: in.Whitelist, whitelistStored: true}
	ids := map[string]bool{}
	for i, w := range in.Internal {
		p := fmt.Sprintf("%s.internal[%d]", path, i)
		switch {
		case w == nil || w.ID == "":
			return nil, fixtureProblem(p+".id", "is required")
		case ids[w.ID]:
			return nil, fixtureProblem(p+".id", "%q appears twice", w.ID)
		case w.Currency == "":
			return nil, fixtureProblem(p+".currency", "is required")
		}
		if !decimalText(w.Balance) {
			return nil, fixtureProblem(p+".balance", "%q is not a decimal amount such as 12.50", w.Balance)
		}
		ids[w.ID] = true
	}
	if len(in.Linked) > maxLinked {
		return nil, fixtureProblem(path+".linked", "at most %d wallets can be linked", maxLinked)
	}
	for i, id := range in.Linked {
		if !ids[id] || slices.Index(in.Linked, id) != i {
			return nil, fixtureProblem(fmt.Sprintf("%s.linked[%d]", path, i), "%q is not an internal wallet of this user, or is linked twice", id)
		}
	}
	if c := in.Credit; c != nil {
		balance, err := parseMicros(c.Balance)
		if strings.Trim(c.Balance, "0.") == "" && decimalText(c.Balance) {
			balance, err = 0, nil // all withdrawn
		}
		if err != nil {
			return nil, fixtureProblem(path+".credit.balance", "%v", err)
		}
		ws.credit = &creditWallet{ID: c.ID, Balance: balance, IsWithdrawable: c.Withdrawable, pendingUntil: c.PendingUntil, withdrawals: c.Withdrawals}
	}
	if ws.history == nil {
		ws.history = map[string][]historyRecord{}
	}
	seqs := map[int]bool{}
	for i, e := range in.Whitelist {
		p := fmt.Sprintf("%s.whitelist[%d]", path, i)
		switch {
		case e == nil || e.ID == "":
			return nil, fixtureProblem(p+".id", "is required")
		case e.Seq < 0 || e.Seq >= in.WhitelistCreated || seqs[e.Seq]:
			return nil, fixtureProblem(p+".seq", "must be unique and below %s.whitelistCreated (%d)", path, in.WhitelistCreated)
		case !whitelistCurrency(e.Currency):
			return nil, fixtureProblem(p+".currency", "unsupported currency %q", e.Currency)
		case !addressLooksValid(e.Currency, e.Address):
			return nil, fixtureProblem(p+".walletAddress", "not a valid %s address", e.Currency)
		case strings.TrimSpace(e.Name) == "":
			return nil, fixtureProblem(p+".name", "is required")
		}
		seqs[e.Seq] = true
	}
	slices.SortStableFunc(ws.whitelist, func(a, b *whitelistRecord) int { return cmp.Compare(a.Seq, b.Seq) })
	return ws, nil
}

// decimalText reports a non-negative decimal such as 0.00 or 1250.50.
func decimalText(s string) bool {
	whole, frac, dot := strings.Cut(s, ".")
	return whole != "" && digitsOnly(whole) && (!dot || (frac != "" && digitsOnly(frac)))
}

// delegationFromFixture checks and builds a user's delegation state (nil
// stays nil: seeded on first use).
func delegationFromFixture(path string, in *fixtureDelegation) (*delegationState, error) {
	if in == nil {
		return nil, nil
	}
	st := &delegationState{tokens: map[string]*delegationToken{}}
	for i, t := range in.Tokens {
		if t.Token == "" || t.Nonce == "" {
			return nil, fixtureProblem(fmt.Sprintf("%s.tokens[%d]", path, i), "token and nonce are required")
		}
		st.tokens[t.Token] = &delegationToken{nonce: t.Nonce, issued: t.Issued, used: t.Used}
	}
	if g := in.Grant; g != nil {
		if g.Network == "" || g.TxHash == "" {
			return nil, fixtureProblem(path+".grant", "network and txHash are required")
		}
		st.grant = &delegationGrant{network: g.Network, address: g.Address, txHash: g.TxHash, at: g.At}
	}
	return st, nil
}

// orderStatuses are the statuses an order may have been announced in.
var orderStatuses = []string{ordStarted, ordPending, ordCompleted, ordFailed, ordExpired}

// ordersFromFixture checks and builds a user's orders.
func ordersFromFixture(path string, in *fixtureOrders) (*ordBook, error) {
	if in == nil {
		return nil, nil
	}
	if in.Created < len(in.Orders) {
		return nil, fixtureProblem(path+".created", "must be at least the number of orders (%d)", len(in.Orders))
	}
	b := &ordBook{seq: in.Created}
	for i, o := range in.Orders {
		p := fmt.Sprintf("%s.orders[%d]", path, i)
		product, ok := ordProductByID(o.ProductID)
		switch {
		case o.ID == "":
			return nil, fixtureProblem(p+".id", "is required")
		case !ok:
			return nil, fixtureProblem(p+".productId", "unknown product %q", o.ProductID)
		case !slices.Contains(orderStatuses, o.ReportedStatus):
			return nil, fixtureProblem(p+".reportedStatus", "must be one of %s", strings.Join(orderStatuses, ", "))
		case o.CreatedAt.IsZero():
			return nil, fixtureProblem(p+".createdAt", "is required")
		}
		b.orders = append(b.orders, &orderRecord{ID: o.ID, RequestID: o.RequestID, Product: product, Method: o.PaymentMethod,
			Created: o.CreatedAt, Destination: o.Destination, ChainID: o.ChainID, Token: o.TokenAddress,
			settled: o.Settled, cardID: o.CardID, reported: o.ReportedStatus})
	}
	return b, nil
}

// fixtureError is a problem in a fixture: where (a JSON path such as
// users[2].card.status) and what.
type fixtureError struct{ Path, Reason string }

func (e *fixtureError) Error() string { return e.Path + ": " + e.Reason }

func fixtureProblem(path, format string, args ...any) error {
	return &fixtureError{Path: path, Reason: fmt.Sprintf(format, args...)}
}
