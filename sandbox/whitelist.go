package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Whitelist rules: the currency query is required (422), unknown currencies
// are refused (422); POST adds all entries or none, and a 422 names the
// entry (wallets[i]) in its message and in errors[].field; DELETE removes
// all ids or none (422 "Invalid wallet id").

// maxWhitelistBatch bounds one add request (the interface does not say).
const maxWhitelistBatch = 50

// whitelistCurrency reports whether the sandbox accepts currency.
func whitelistCurrency(currency string) bool {
	switch currency {
	case "usdc", "usdt", "eth", "matic", "pol", "dai", "btc", "sol", "xrp", "xlm",
		"musd": // a token of the chain configuration (linea)
		return true
	}
	return false
}

type whitelistJSON struct {
	ID                   string  `json:"id"`
	Name                 string  `json:"name"`
	BeneficiaryFirstName string  `json:"beneficiaryFirstName"`
	BeneficiaryLastName  string  `json:"beneficiaryLastName"`
	WalletAddress        string  `json:"walletAddress"`
	WalletMemo           *string `json:"walletMemo"`
	Currency             string  `json:"currency"`
	LastUsedAt           *string `json:"lastUsedAt"`
	CreatedAt            string  `json:"createdAt"`
}

// whitelistList: GET /v1/wallet/whitelist?currency=...
func (s *Server) whitelistList(c *call) {
	cur := strings.ToLower(strings.TrimSpace(c.r.URL.Query().Get("currency")))
	if cur == "" {
		c.fail(http.StatusUnprocessableEntity, "The currency parameter is required")
		return
	}
	if !whitelistCurrency(cur) {
		c.fail(http.StatusUnprocessableEntity, "Unsupported currency: "+cur)
		return
	}
	s.mu.Lock()
	out := []whitelistJSON{}
	for _, e := range walletsOf(c.user).whitelist {
		if e.Currency == cur {
			out = append(out, whitelistJSON{e.ID, e.Name, e.First, e.Last, e.Address, e.Memo, e.Currency, e.LastUsedAt, e.CreatedAt})
		}
	}
	s.mu.Unlock()
	c.json(http.StatusOK, out)
}

type whitelistIn struct {
	Currency             string  `json:"currency"`
	Name                 string  `json:"name"`
	BeneficiaryFirstName string  `json:"beneficiaryFirstName"`
	BeneficiaryLastName  string  `json:"beneficiaryLastName"`
	WalletAddress        string  `json:"walletAddress"`
	WalletMemo           *string `json:"walletMemo"`
}

// whitelistAdd: POST /v1/wallet/whitelist {wallets:[...]} -> 201.
func (s *Server) whitelistAdd(c *call) {
	var in struct {
		Wallets []whitelistIn `json:"wallets"`
	}
	if !c.decode(&in) {
		return
	}
	switch {
	case len(in.Wallets) == 0:
		writeValidation(c.w, http.StatusUnprocessableEntity, "wallets is required", fieldError{"wallets", "at least one entry is required"})
		return
	case len(in.Wallets) > maxWhitelistBatch:
		writeValidation(c.w, http.StatusUnprocessableEntity, fmt.Sprintf("At most %d entries can be added in one request", maxWhitelistBatch))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ws := walletsOf(c.user)
	var errs []fieldError
	seen := map[string]bool{}
	for _, e := range ws.whitelist {
		seen[e.Currency+"\x00"+strings.ToLower(e.Address)] = true
	}
	for i, e := range in.Wallets {
		p := fmt.Sprintf("wallets[%d].", i)
		cur := strings.ToLower(strings.TrimSpace(e.Currency))
		memo := ""
		if e.WalletMemo != nil {
			memo = strings.TrimSpace(*e.WalletMemo)
		}
		for _, f := range [][2]string{{"currency", e.Currency}, {"name", e.Name}, {"beneficiaryFirstName", e.BeneficiaryFirstName},
			{"beneficiaryLastName", e.BeneficiaryLastName}, {"walletAddress", e.WalletAddress}} {
			if strings.TrimSpace(f[1]) == "" {
				errs = append(errs, fieldError{p + f[0], f[0] + " is required"})
			}
		}
		switch {
		case cur == "" || e.WalletAddress == "":
		case !whitelistCurrency(cur):
			errs = append(errs, fieldError{p + "currency", "Unsupported currency: " + cur})
		case !addressLooksValid(cur, e.WalletAddress):
			errs = append(errs, fieldError{p + "walletAddress", "Invalid address format for " + cur})
		case (cur == "xrp" || cur == "xlm") && memo == "":
			errs = append(errs, fieldError{p + "walletMemo", "walletMemo is required for " + cur})
		case cur == "xrp" && !digitsOnly(memo):
			errs = append(errs, fieldError{p + "walletMemo", "Invalid destination tag: digits only"})
		case seen[cur+"\x00"+strings.ToLower(e.WalletAddress)]:
			errs = append(errs, fieldError{p + "walletAddress", "Address is already whitelisted for " + cur})
		}
		seen[cur+"\x00"+strings.ToLower(e.WalletAddress)] = true
	}
	if len(errs) > 0 {
		first := errs[0]
		writeValidation(c.w, http.StatusUnprocessableEntity, first.Message+" ("+first.Field+")", errs...)
		return
	}
	now := s.now().UTC().Format(time.RFC3339)
	before := len(ws.whitelist)
	for _, e := range in.Wallets {
		cur := strings.ToLower(strings.TrimSpace(e.Currency))
		var memo *string
		if e.WalletMemo != nil && strings.TrimSpace(*e.WalletMemo) != "" {
			memo = strp(strings.TrimSpace(*e.WalletMemo))
		}
		ws.whitelist = append(ws.whitelist, &whitelistRecord{
			Seq: ws.whitelistSeq, ID: uuidFrom("whitelist", c.user.ID, fmt.Sprint(ws.whitelistSeq)), Name: e.Name,
			First: e.BeneficiaryFirstName, Last: e.BeneficiaryLastName, Address: e.WalletAddress,
			Currency: cur, Memo: memo, CreatedAt: now,
		})
		ws.whitelistSeq++
	}
	s.keepWhitelistLocked(c.user, ws.whitelist[before:], nil)
	writeJSON(c.w, http.StatusCreated, success)
}

// whitelistDelete: DELETE /v1/wallet/whitelist {walletIds:[...]}.
func (s *Server) whitelistDelete(c *call) {
	var in struct {
		WalletIDs []string `json:"walletIds"`
	}
	if !c.decode(&in) {
		return
	}
	if len(in.WalletIDs) == 0 {
		c.fail(http.StatusUnprocessableEntity, "walletIds is required")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ws := walletsOf(c.user)
	for _, id := range in.WalletIDs {
		if !slices.ContainsFunc(ws.whitelist, func(e *whitelistRecord) bool { return e.ID == id }) {
			c.fail(http.StatusUnprocessableEntity, "Invalid wallet id: "+id)
			return
		}
	}
	var removed []*whitelistRecord
	ws.whitelist = slices.DeleteFunc(ws.whitelist, func(e *whitelistRecord) bool {
		gone := slices.Contains(in.WalletIDs, e.ID)
		if gone {
			removed = append(removed, e)
		}
		return gone
	})
	s.keepWhitelistLocked(c.user, nil, removed)
	c.json(http.StatusOK, success)
}

// addressLooksValid is the gateway's own format check per currency (shape
// and alphabet; the client also verifies checksums before sending).
func addressLooksValid(cur, a string) bool {
	in := func(set string, lo, hi int) bool {
		if len(a) < lo || len(a) > hi {
			return false
		}
		for i := 0; i < len(a); i++ {
			if !strings.ContainsRune(set, rune(a[i])) {
				return false
			}
		}
		return true
	}
	const b58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	const xrp58 = "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz"
	switch cur {
	case "btc":
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "bc1") {
			a = l[3:]
			return in("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 11, 71)
		}
		return (a[0] == '1' || a[0] == '3') && in(b58, 26, 35)
	case "sol":
		return in(b58, 32, 44)
	case "xrp":
		return a[0] == 'r' && in(xrp58, 25, 35)
	case "xlm":
		return a[0] == 'G' && in("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 56, 56)
	}
	return len(a) == 42 && strings.HasPrefix(a, "0x") && strings.Trim(strings.ToLower(a[2:]), "0123456789abcdef") == ""
}
