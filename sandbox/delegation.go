package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Delegation endpoints: the single-use delegation token with its optional
// gas faucet, the chain configuration, and the post-approval step.
//
// Rules the interface leaves "not shown", as the sandbox answers them:
//   - faucet=true without address or network, an unknown network, an address
//     that is not valid for the network, or a faucet value that is not a
//     boolean: 422 {message} (as the whitelist's missing currency).
//   - the faucet outcome is deterministic, from the address (case
//     insensitive), when the user has no grant yet:
//     ends in "dead": declined (207, status declined, error);
//     ends in "bad":  faucet service error (207, no status, error);
//     ends in "0":    still pending after the 10 s of polling (200, status
//     pending, message); on the wall clock the answer really
//     takes 10 s, on a manual clock it is immediate;
//     otherwise:      confirmed (200, status confirmed, transactionHash).
//     A pending or confirmed answer is the user's one grant; every later
//     faucet request answers 207 "already received" with the earlier
//     grant's network and transactionHash. Declined and errors grant nothing.
//   - the token lives 10 minutes on the sandbox clock, is bound to its user
//     and is consumed by a successful post-approval only.
//   - post-approval: fields are checked first (422 {message, errors[]}),
//     then the token and nonce (400 {message}); the nonce is required
//     because the interface says it is sent with the token. Success
//     registers the address as the user's external wallet (wallet state in
//     seed_wallets.go): allowance = amount approved, balance = amount.

// delegationTokenLife is how long a delegation token lives: "about 10 minutes".
const delegationTokenLife = 10 * time.Minute

// delegationFaucetPoll is how long the faucet polls for confirmation.
const delegationFaucetPoll = 10 * time.Second

// delegationFaucetNetwork reports whether the faucet pays on network.
func delegationFaucetNetwork(network string) bool {
	return network == "linea" || network == "solana" || network == "base"
}

// faucetJSON is the faucet object of the token answer.
type faucetJSON struct {
	Success         bool   `json:"success"`
	Network         string `json:"network,omitempty"`
	Status          string `json:"status,omitempty"`
	TransactionHash string `json:"transactionHash,omitempty"`
	Message         string `json:"message,omitempty"`
	Error           string `json:"error,omitempty"`
}

type delegationTokenJSON struct {
	Token  string      `json:"token"`
	Nonce  string      `json:"nonce"`
	Faucet *faucetJSON `json:"faucet,omitempty"`
}

// delegationAddressOK checks an address for a network: EVM for linea, base and the
// other EVM networks, a base58 public key for solana.
func delegationAddressOK(network, address string) bool {
	if network == "solana" {
		return sbSolanaKey(address)
	}
	return sbEVMAddress(address)
}

// delegationOutcome is what the faucet would do for address, ignoring earlier
// grants (see the rules at the top of this file).
func delegationOutcome(address string) string {
	a := strings.ToLower(address)
	switch {
	case strings.HasSuffix(a, "dead"):
		return "declined"
	case strings.HasSuffix(a, "bad"):
		return "error"
	case strings.HasSuffix(a, "0"):
		return "pending"
	}
	return "confirmed"
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// delegationToken: GET /v1/delegation/token.
func (s *Server) delegationToken(c *call) {
	q := c.r.URL.Query()
	faucet := false
	if v := strings.TrimSpace(q.Get("faucet")); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			c.fail(http.StatusUnprocessableEntity, "faucet must be true or false")
			return
		}
		faucet = b
	}
	address, network := strings.TrimSpace(q.Get("address")), strings.TrimSpace(q.Get("network"))
	switch {
	case network != "" && !delegationFaucetNetwork(network):
		c.fail(http.StatusUnprocessableEntity, fmt.Sprintf("network must be one of linea, solana, base (got %q)", network))
		return
	case faucet && (address == "" || network == ""):
		c.fail(http.StatusUnprocessableEntity, "address and network are required when faucet=true")
		return
	case address != "" && network != "" && !delegationAddressOK(network, address):
		what := "an EVM address (0x followed by 40 hex digits)"
		if network == "solana" {
			what = "a base58 Solana public key"
		}
		c.fail(http.StatusUnprocessableEntity, "Invalid address format: "+network+" needs "+what)
		return
	case address != "" && network == "" && !sbEVMAddress(address) && !sbSolanaKey(address):
		c.fail(http.StatusUnprocessableEntity, "Invalid address format: expected an EVM address or a base58 Solana public key")
		return
	}

	if faucet && delegationOutcome(address) == "pending" {
		s.mu.Lock()
		granted := delegationOf(c.user).grant != nil
		s.mu.Unlock()
		if _, wall := s.clock.(realClock); wall && !granted {
			t := time.NewTimer(delegationFaucetPoll)
			select {
			case <-t.C:
			case <-c.r.Context().Done():
				t.Stop()
				return // the client gave up: nothing is issued or granted
			}
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	st := delegationOf(c.user)
	now := s.now()
	for k, t := range st.tokens {
		if !now.Before(t.issued.Add(delegationTokenLife)) {
			delete(st.tokens, k) // expired, used or not
		}
	}
	out := delegationTokenJSON{Token: "dlgt_" + randomHex(24), Nonce: randomHex(16)}
	st.tokens[out.Token] = &delegationToken{nonce: out.Nonce, issued: now}
	status := http.StatusOK
	if faucet {
		out.Faucet, status = s.runFaucet(c.user, st, network, address, now)
	}
	s.keepUserLocked(c.user)
	c.json(status, out)
}

// runFaucet applies the faucet rules; s.mu is held.
func (s *Server) runFaucet(u *userRecord, st *delegationState, network, address string, now time.Time) (*faucetJSON, int) {
	if g := st.grant; g != nil {
		return &faucetJSON{Success: false, Network: g.network, Status: "declined", TransactionHash: g.txHash,
			Error: fmt.Sprintf("Faucet already used: funds already received (gas sent to %s on %s on %s); the faucet pays once per user across all networks",
				g.address, g.network, g.at.UTC().Format("2006-01-02"))}, http.StatusMultiStatus
	}
	switch delegationOutcome(address) {
	case "declined":
		return &faucetJSON{Success: false, Network: network, Status: "declined",
			Error: "Faucet request declined: the address did not pass risk screening"}, http.StatusMultiStatus
	case "error":
		return &faucetJSON{Success: false, Network: network,
			Error: "Faucet service error: the gas provider did not answer"}, http.StatusMultiStatus
	}
	tx := delegationTxHash(network, u.ID, address)
	st.grant = &delegationGrant{network: network, address: address, txHash: tx, at: now}
	if delegationOutcome(address) == "pending" {
		return &faucetJSON{Success: true, Network: network, Status: "pending",
			Message: "Gas transaction submitted but not confirmed after 10 seconds of polling; it usually confirms within a minute"}, http.StatusOK
	}
	return &faucetJSON{Success: true, Network: network, Status: "confirmed", TransactionHash: tx}, http.StatusOK
}

// chainConfig: GET /v1/delegation/chain/config.
func (s *Server) chainConfig(c *call) {
	want := strings.ToLower(strings.TrimSpace(c.r.URL.Query().Get("network")))
	nets := []chainNetworkJSON{}
	for _, n := range delegationChainConfig(c.be.key) {
		if want == "" || n.Network == want {
			nets = append(nets, n)
		}
	}
	if len(nets) == 0 {
		writeErrorMessage(c.w, http.StatusNotFound, "Not Found",
			fmt.Sprintf("No networks found for network %q in the %s region", want, strings.ToUpper(c.be.key.Region)))
		return
	}
	var networks any = nets
	if s.opts.AltShapes {
		networks = altChainNetworks(nets)
	}
	c.json(http.StatusOK, map[string]any{
		"networks": networks,
		"count":    len(nets),
		"_links":   map[string]string{"self": c.r.URL.RequestURI()},
	})
}

// postApprovalBody is the post-approval request (docs/internals/sandbox.md, plus the nonce
// the interface requires with the token).
type postApprovalBody struct {
	Address    string `json:"address"`
	Network    string `json:"network"`
	Currency   string `json:"currency"`
	Amount     string `json:"amount"`
	TxHash     string `json:"txHash"`
	SigHash    string `json:"sigHash"`
	SigMessage string `json:"sigMessage"`
	Token      string `json:"token"`
	Nonce      string `json:"nonce"`
}

// postApproval: POST /v1/delegation/{evm,solana}/post-approval.
func (s *Server) postApproval(chain string) func(*call) {
	return func(c *call) {
		var b postApprovalBody
		if !c.decode(&b) {
			return
		}
		if errs := delegationValidateApproval(chain, c.be.key, &b); len(errs) > 0 {
			writeValidation(c.w, http.StatusUnprocessableEntity, "Validation failed: "+errs[0].Message, errs...)
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		st := delegationOf(c.user)
		t := st.tokens[b.Token]
		now := s.now()
		switch {
		case t == nil:
			c.fail(http.StatusBadRequest, "Invalid delegation token: request a new one")
		case t.used:
			c.fail(http.StatusBadRequest, "Delegation token already used: request a new one")
		case !now.Before(t.issued.Add(delegationTokenLife)):
			c.fail(http.StatusBadRequest, "Delegation token expired: request a new one")
		case !secretEqual(b.Nonce, t.nonce):
			c.fail(http.StatusBadRequest, "Nonce does not match the delegation token")
		default:
			t.used = true
			delegationRegisterExternal(c.user, b)
			s.keepUserLocked(c.user)
			s.emitLocked(c.be, c.user.ID, WebhookEventDelegationCompleted, b.TxHash, map[string]any{
				"chain": chain, "network": b.Network, "address": b.Address, "currency": b.Currency,
				"amount": b.Amount, "txHash": b.TxHash,
			})
			c.json(http.StatusOK, map[string]bool{"success": true})
		}
	}
}

// delegationValidateApproval checks every field; the problems come back by wire
// name, so a client can show each on its field.
func delegationValidateApproval(chain string, k backendKey, b *postApprovalBody) []fieldError {
	var errs []fieldError
	bad := func(field, msg string) { errs = append(errs, fieldError{Field: field, Message: msg}) }
	b.Network = strings.ToLower(strings.TrimSpace(b.Network))
	b.Currency = strings.ToLower(strings.TrimSpace(b.Currency))
	var net *chainNetworkJSON
	for _, n := range delegationChainConfig(k) {
		if n.Network == b.Network && (n.Network == "solana") == (chain == "solana") {
			net = &n
			break
		}
	}
	solana := chain == "solana"
	switch {
	case b.Address == "":
		bad("address", "address is required")
	case solana && !sbSolanaKey(b.Address):
		bad("address", "Invalid address format: expected a base58 Solana public key")
	case !solana && !sbEVMAddress(b.Address):
		bad("address", "Invalid address format: expected 0x followed by 40 hex digits")
	}
	switch {
	case b.Network == "":
		bad("network", "network is required")
	case net == nil:
		bad("network", fmt.Sprintf("network %q has no %s delegation contract in this region", b.Network, chain))
	}
	decimals := 6
	switch {
	case b.Currency == "":
		bad("currency", "currency is required")
	case net != nil:
		if tok, ok := net.Tokens[b.Currency]; ok {
			decimals = tok.Decimals
		} else {
			bad("currency", fmt.Sprintf("currency %q is not a token of %s", b.Currency, b.Network))
		}
	}
	if msg := delegationAmountProblem(b.Amount, decimals); msg != "" {
		bad("amount", msg)
	}
	// EVM: a 32-byte transaction hash, a 32-byte hash or 65-byte signature;
	// Solana: a 64-byte transaction signature, a 64-byte signature or a
	// 32-byte hash.
	txBytes, sigBytes := 32, []int{32, 65}
	if solana {
		txBytes, sigBytes = 64, []int{64, 32}
	}
	if !delegationHashOK(solana, b.TxHash, txBytes) {
		bad("txHash", delegationHashHint("txHash", solana, "0x followed by 64 hex digits", "a base58 transaction signature"))
	}
	if !delegationHashOK(solana, b.SigHash, sigBytes[0]) && !delegationHashOK(solana, b.SigHash, sigBytes[1]) {
		bad("sigHash", delegationHashHint("sigHash", solana, "0x followed by 64 or 130 hex digits", "a base58 signature"))
	}
	switch {
	case strings.TrimSpace(b.SigMessage) == "":
		bad("sigMessage", "sigMessage is required")
	case len(b.SigMessage) > 4096:
		bad("sigMessage", "sigMessage must be at most 4096 characters")
	}
	if b.Token == "" {
		bad("token", "token is required: request a delegation token first")
	}
	if b.Nonce == "" {
		bad("nonce", "nonce is required: send the nonce issued with the delegation token")
	}
	return errs
}

func delegationHashHint(field string, solana bool, evm, sol string) string {
	if solana {
		return field + " must be " + sol
	}
	return field + " must be " + evm
}

// delegationHashOK checks an n-byte value: 0x + hex on EVM, base58 on Solana.
func delegationHashOK(solana bool, s string, n int) bool {
	if solana {
		b, ok := delegationBase58Decode(s)
		return ok && s != "" && len(b) == n
	}
	if len(s) != 2+2*n || !strings.HasPrefix(s, "0x") {
		return false
	}
	_, err := hex.DecodeString(s[2:])
	return err == nil
}

// delegationAmountProblem checks a positive decimal string with at most decimals
// fraction digits; "" when it is fine.
func delegationAmountProblem(s string, decimals int) string {
	if s == "" {
		return "amount is required"
	}
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || !digitsOnly(whole) || (dot && (frac == "" || !digitsOnly(frac))) {
		return fmt.Sprintf("amount %q is not a decimal amount such as 12.50", s)
	}
	if len(frac) > decimals {
		return fmt.Sprintf("amount has more than %d decimal places", decimals)
	}
	if strings.Trim(whole+frac, "0") == "" {
		return "amount must be greater than zero"
	}
	return ""
}

// delegationRegisterExternal records the approved address as the user's external
// wallet (the wallet family's state): a new approval of the same address,
// currency and network replaces its allowance. s.mu is held.
func delegationRegisterExternal(u *userRecord, b postApprovalBody) {
	ws := walletsOf(u)
	for i, w := range ws.external {
		if strings.EqualFold(w.Address, b.Address) && w.Currency == b.Currency && w.Network == b.Network {
			ws.external[i].Allowance = b.Amount
			return
		}
	}
	ws.external = append(ws.external, externalWallet{Address: b.Address, Currency: b.Currency,
		Balance: b.Amount, Allowance: b.Amount, Network: b.Network})
}
