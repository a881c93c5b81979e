package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// walletState is everything wallet-related one user owns. It is created from
// the seed the first time a wallet endpoint touches the user (walletsOf),
// always the same for the same username.
type walletState struct {
	internal []*internalWallet // seed order
	linked   []string          // internal wallet ids, highest priority first
	external []externalWallet
	credit   *creditWallet // nil: no credit yet (404)
	// history per wallet id, oldest first.
	history      map[string][]historyRecord
	whitelist    []*whitelistRecord
	whitelistSeq int // whitelist entries created so far, for deterministic ids
	// whitelistStored says a data directory holds every entry (store.go);
	// until then the entries are the seed's.
	whitelistStored bool
}

// internalWallet, externalWallet, historyRecord and whitelistRecord are
// stored (data directory, fixtures) in their JSON form, so their tags are
// the fixture's documented names.
type internalWallet struct {
	ID        string  `json:"id"`
	AddressID string  `json:"addressId"`
	Currency  string  `json:"currency"`
	Address   string  `json:"address"`
	Balance   string  `json:"balance"`
	Network   string  `json:"network"`
	Memo      *string `json:"memo"`
}

type externalWallet struct {
	Address   string `json:"address"`
	Currency  string `json:"currency"`
	Balance   string `json:"balance"`
	Allowance string `json:"allowance"`
	Network   string `json:"network"`
}

type creditWallet struct {
	ID             string
	Balance        int64 // micro-USDC
	IsWithdrawable bool
	// pendingUntil is when the withdrawal in progress settles; until then a
	// second withdrawal is refused.
	pendingUntil time.Time
	withdrawals  int // for deterministic tx hashes
}

type historyRecord struct {
	Name     string `json:"name"`
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
	Sign     string `json:"sign"`
	Date     string `json:"date"`
}

// whitelistRecord's Seq is its creation number (its id derives from it);
// a data directory keeps the entries in Seq order.
type whitelistRecord struct {
	Seq        int     `json:"seq"`
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	First      string  `json:"beneficiaryFirstName"`
	Last       string  `json:"beneficiaryLastName"`
	Address    string  `json:"walletAddress"`
	Memo       *string `json:"walletMemo"`
	Currency   string  `json:"currency"`
	LastUsedAt *string `json:"lastUsedAt"`
	CreatedAt  string  `json:"createdAt"`
}

// walletNetwork is the network a seeded currency lives on. (Switches like
// this one stand for small maps throughout the sandbox: a package map is
// built before main on every start.)
func walletNetwork(currency string) string {
	switch currency {
	case "usdc":
		return "linea"
	case "usdt", "eth":
		return "ethereum"
	case "matic":
		return "polygon"
	case "btc":
		return "bitcoin"
	case "sol":
		return "solana"
	case "xrp":
		return "xrpl"
	case "xlm":
		return "stellar"
	}
	return ""
}

// seedInternal is one seeded internal wallet: currency, balance, linked.
type seedInternal struct {
	currency, balance string
	linked            bool
}

// seedWallet is the wallet seed of one user.
type seedWallet struct {
	internal  []seedInternal
	external  bool
	credit    string // "" = no credit wallet; else its balance
	creditOff bool   // credit wallet not withdrawable
	whitelist []seedWL
	history   int // items of history on the first internal wallet
}

type seedWL struct {
	currency, name, first, last, address string
	memo                                 *string
	lastUsed                             *string
}

// walletSeeds by username; users not listed get defaultWalletSeed. Made
// at first use, as seedUsers.
var walletSeeds = lazy[map[string]seedWallet]{build: func() map[string]seedWallet {
	return map[string]seedWallet{
		"alice@demo.test": {
			internal: []seedInternal{{"usdc", "1250.50", true}, {"eth", "0.8421", false}, {"btc", "0.01542", false}},
			external: true, credit: "500.00", history: 23,
			whitelist: []seedWL{
				{"usdc", "Savings", "Alice", "Martin", "0x52908400098527886E0F7030069857D2E4169EE7", nil, strp("2025-03-02T10:15:00Z")},
				{"usdc", "Landlord", "Jean", "Dupont", "0x8617E340B3D01FA5F11F306F4090FD50E238070D", nil, nil},
				{"xrp", "Exchange deposit", "Alice", "Martin", "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe", strp("123456"), nil},
			},
		},
		"lena@demo.test": {
			internal: []seedInternal{
				{"usdc", "410.00", true}, {"usdt", "95.25", true}, {"eth", "1.2", true},
				{"matic", "300", true}, {"sol", "12.5", true}, {"btc", "0.002", false},
			},
			external: true, credit: "75.00", history: 4,
		},
		"nora@demo.test":  {internal: []seedInternal{{"usdc", "20.00", false}}},
		"frank@demo.test": {internal: []seedInternal{{"usdc", "88.10", true}, {"eth", "0.05", false}, {"xrp", "140.00", false}}, credit: "200.00", history: 2},
		"bruno@demo.test": {internal: []seedInternal{{"usdc", "15.00", true}}, external: true, credit: "900.00", creditOff: true},
		"mallory@demo.test": {
			internal: []seedInternal{{"usdc", "1.00", false}},
			whitelist: []seedWL{
				{"usdc", malloryFirst, "Mallory", malloryLast, "0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe", nil, nil},
			},
		},
	}
}}

var defaultWalletSeed = seedWallet{internal: []seedInternal{{"usdc", "0.00", false}}}

// seedTime is when the seeded wallet data happened.
func seedTime() time.Time { return time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC) }

// walletsOf returns u's wallet state, seeding it on first use. The caller
// holds s.mu.
func walletsOf(u *userRecord) *walletState {
	if u.wallets == nil {
		u.wallets = seedWalletState(u)
	}
	return u.wallets
}

// hexFrom is a stable hex string of n characters derived from parts.
func hexFrom(n int, parts ...string) string {
	var out string
	for i := 0; len(out) < n; i++ {
		h := sha256.Sum256([]byte(strings.Join(append(parts, fmt.Sprint(i)), "\x00")))
		out += hex.EncodeToString(h[:])
	}
	return out[:n]
}

// seedAddress makes a plausible, stable address for a currency.
func seedAddress(currency string, parts ...string) string {
	h := hexFrom(40, append([]string{currency}, parts...)...)
	switch currency {
	case "btc":
		return "bc1q" + strings.NewReplacer("b", "q", "1", "p").Replace(h[:38])
	case "sol":
		return base58Of(h)
	case "xrp":
		return "r" + base58Of(h)[:32]
	}
	return "0x" + h
}

// base58Of writes hex digits in base58 letters (display only).
func base58Of(h string) string {
	const alpha = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	var b strings.Builder
	for i := 0; i+1 < len(h); i += 2 {
		v := strings.IndexByte("0123456789abcdef", h[i])*16 + strings.IndexByte("0123456789abcdef", h[i+1])
		b.WriteByte(alpha[v%58])
	}
	for b.Len() < 44 {
		b.WriteByte(alpha[b.Len()%58])
	}
	return b.String()[:44]
}

func seedWalletState(u *userRecord) *walletState {
	sd, ok := walletSeeds.get()[u.Username]
	if !ok {
		sd = defaultWalletSeed
	}
	ws := &walletState{history: map[string][]historyRecord{}}
	for _, si := range sd.internal {
		w := &internalWallet{
			ID:        uuidFrom("wallet", u.ID, si.currency),
			AddressID: uuidFrom("address", u.ID, si.currency),
			Currency:  si.currency, Balance: si.balance, Network: walletNetwork(si.currency),
			Address: seedAddress(si.currency, u.ID),
		}
		if si.currency == "xrp" || si.currency == "xlm" {
			w.Memo = strp(fmt.Sprint(100000 + hashNum(w.ID)%900000))
		}
		ws.internal = append(ws.internal, w)
		if si.linked {
			ws.linked = append(ws.linked, w.ID)
		}
	}
	if sd.external {
		ws.external = []externalWallet{{
			Address: seedAddress("usdc", u.ID, "external"), Currency: "usdc",
			Balance: "320.00", Allowance: "150.00", Network: "linea",
		}}
	}
	if sd.credit != "" {
		micros, _ := parseMicros(sd.credit)
		ws.credit = &creditWallet{ID: uuidFrom("credit", u.ID), Balance: micros, IsWithdrawable: !sd.creditOff}
		ws.history[ws.credit.ID] = []historyRecord{
			{Name: "Credit line opened", Amount: sd.credit, Currency: "usdc", Sign: "CREDIT", Date: seedTime().Format(time.RFC3339)},
		}
	}
	if len(ws.internal) > 0 && sd.history > 0 {
		w := ws.internal[0]
		names := []string{"Card payment · Café Lumière", "Top-up", "Card payment · Metro", "Refund · Bookshop", "Card payment · Grocer"}
		for i := 0; i < sd.history; i++ {
			sign, amount := "DEBIT", fmt.Sprintf("%d.%02d", 3+(i*7)%40, (i*13)%100)
			if i%5 == 1 || i%5 == 3 {
				sign = "CREDIT"
			}
			ws.history[w.ID] = append(ws.history[w.ID], historyRecord{
				Name: names[i%len(names)], Amount: amount, Currency: w.Currency, Sign: sign,
				Date: seedTime().Add(time.Duration(i) * 26 * time.Hour).Format(time.RFC3339),
			})
		}
	}
	for i, wl := range sd.whitelist {
		ws.whitelist = append(ws.whitelist, &whitelistRecord{
			Seq: i, ID: uuidFrom("whitelist", u.ID, fmt.Sprint(i)), Name: wl.name, First: wl.first, Last: wl.last,
			Address: wl.address, Currency: wl.currency, Memo: wl.memo, LastUsedAt: wl.lastUsed,
			CreatedAt: seedTime().Add(time.Duration(i) * time.Hour).Format(time.RFC3339),
		})
	}
	ws.whitelistSeq = len(sd.whitelist)
	return ws
}
