package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"strings"
	"time"
)

// Delegation seed and chain configuration.
//
// Seeded state: faye@demo.test already received gas from the faucet (on
// linea, delegationSeedGrantOf), so her next faucet request answers 207 with the
// earlier grant's transactionHash. Everybody else starts with no grant and
// no delegation token.
//
// Chain configuration: one table per region. The US configuration has other
// delegation contracts and no etherlink (so ?network=etherlink&region=us
// answers 404). Sandbox credentials get test networks ("staging"),
// production credentials main networks ("production"). Addresses are
// derived deterministically (EVM: 0x + 40 hex; Solana: base58 of 32 bytes),
// so they are the same on every run.

// delegationState is everything delegation-related one user owns; guarded by
// Server.mu.
type delegationState struct {
	tokens map[string]*delegationToken // issued delegation tokens by token
	grant  *delegationGrant            // the faucet's one grant; nil until it paid
}

// delegationToken is one issued delegation token: single use, about 10 minutes,
// bound to the user whose state holds it.
type delegationToken struct {
	nonce  string
	issued time.Time
	used   bool
}

// delegationGrant is gas the faucet sent (once per user across all networks).
type delegationGrant struct {
	network, address, txHash string
	at                       time.Time
}

// delegationSeedGrant is a faucet grant that happened before the sandbox started.
type delegationSeedGrant struct {
	network, address string
	at               time.Time
}

// delegationSeedGrantOf is the user's seeded grant; ok is false for a
// user without one.
func delegationSeedGrantOf(username string) (grant delegationSeedGrant, ok bool) {
	switch username {
	case "faye@demo.test":
		return delegationSeedGrant{network: "linea", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
			at: time.Date(2025, 2, 14, 10, 30, 0, 0, time.UTC)}, true
	}
	return delegationSeedGrant{}, false
}

// delegationOf returns u's delegation state, seeding it on first use. The
// caller holds s.mu.
func delegationOf(u *userRecord) *delegationState {
	if u.delegation == nil {
		st := &delegationState{tokens: map[string]*delegationToken{}}
		if g, ok := delegationSeedGrantOf(u.Username); ok {
			st.grant = &delegationGrant{network: g.network, address: g.address, at: g.at,
				txHash: delegationTxHash(g.network, u.ID, g.address)}
		}
		u.delegation = st
	}
	return u.delegation
}

// delegationTxHash is the deterministic transaction of a faucet grant: 0x + 64 hex
// on EVM networks, a base58 signature of 64 bytes on Solana.
func delegationTxHash(network string, parts ...string) string {
	if network == "solana" {
		a := sha256.Sum256([]byte(hexFrom(64, append([]string{"faucet-sig-a", network}, parts...)...)))
		b := sha256.Sum256([]byte(hexFrom(64, append([]string{"faucet-sig-b", network}, parts...)...)))
		return delegationBase58(append(a[:], b[:]...))
	}
	return "0x" + hexFrom(64, append([]string{"faucet", network}, parts...)...)
}

// delegationBase58 encodes b in the Bitcoin alphabet Solana uses.
func delegationBase58(b []byte) string {
	const alpha = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	n := new(big.Int).SetBytes(b)
	base, mod := big.NewInt(58), new(big.Int)
	var out []byte
	for n.Sign() > 0 {
		n.DivMod(n, base, mod)
		out = append(out, alpha[mod.Int64()])
	}
	for _, c := range b {
		if c != 0 {
			break
		}
		out = append(out, '1')
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// delegationSolanaKey is a deterministic, valid Solana public key.
func delegationSolanaKey(parts ...string) string {
	h := sha256.Sum256([]byte(hexFrom(64, parts...)))
	return delegationBase58(h[:])
}

// delegationNetworkDef is one network of the chain configuration before it is
// specialised for a backend.
type delegationNetworkDef struct {
	network            string
	testChain, mainnet string // chainId on test networks and on the main network
	tokens             []delegationTokenDef
}

type delegationTokenDef struct {
	symbol   string
	decimals int
}

// delegationNetworks is the chain configuration in the interface's network order.
// Solana's chainId (not shown by the interface) is its CAIP-2 cluster
// reference: devnet on sandbox credentials, mainnet on production ones.
var delegationNetworks = []delegationNetworkDef{
	{"ethereum", "11155111", "1", []delegationTokenDef{{"usdc", 6}, {"usdt", 6}}},
	{"linea", "59141", "59144", []delegationTokenDef{{"usdc", 6}, {"usdt", 6}, {"musd", 6}}},
	{"solana", "EtWTRABZaYq6iMfeYKouRu166VU2xqa1", "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", []delegationTokenDef{{"usdc", 6}, {"usdt", 6}}},
	{"etherlink", "128123", "42793", []delegationTokenDef{{"usdc", 6}, {"usdt", 6}}},
}

// delegationUSNetwork reports whether the US backend offers network.
func delegationUSNetwork(network string) bool {
	return network == "ethereum" || network == "linea" || network == "solana"
}

// chainNetworkJSON and chainTokenJSON are the wire shapes.
type chainNetworkJSON struct {
	Network            string                    `json:"network"`
	Environment        string                    `json:"environment"`
	ChainID            string                    `json:"chainId"`
	DelegationContract string                    `json:"delegationContract"`
	Tokens             map[string]chainTokenJSON `json:"tokens"`
}

type chainTokenJSON struct {
	Symbol   string `json:"symbol"`
	Decimals int    `json:"decimals"`
	Address  string `json:"address"`
}

// delegationChainConfig is the chain configuration of one backend, in network
// order.
func delegationChainConfig(k backendKey) []chainNetworkJSON {
	envName := "staging"
	if k.Env == "production" {
		envName = "production"
	}
	var out []chainNetworkJSON
	for _, d := range delegationNetworks {
		if k.Region == "us" && !delegationUSNetwork(d.network) {
			continue
		}
		chain := d.testChain
		if k.Env == "production" {
			chain = d.mainnet
		}
		addr := func(parts ...string) string {
			parts = append([]string{k.Tenant, k.Env, k.Region, d.network}, parts...)
			if d.network == "solana" {
				return delegationSolanaKey(parts...)
			}
			return "0x" + hexFrom(40, parts...)
		}
		n := chainNetworkJSON{Network: d.network, Environment: envName, ChainID: chain,
			DelegationContract: addr("delegation"), Tokens: map[string]chainTokenJSON{}}
		for _, t := range d.tokens {
			n.Tokens[t.symbol] = chainTokenJSON{Symbol: t.symbol, Decimals: t.decimals, Address: addr("token", t.symbol)}
		}
		out = append(out, n)
	}
	return out
}

// sbEVMAddress reports 0x + 40 hex digits.
func sbEVMAddress(s string) bool {
	if len(s) != 42 || !strings.HasPrefix(s, "0x") {
		return false
	}
	_, err := hex.DecodeString(s[2:])
	return err == nil
}

// sbSolanaKey reports a base58 string decoding to exactly 32 bytes.
func sbSolanaKey(s string) bool {
	b, ok := delegationBase58Decode(s)
	return ok && len(s) >= 32 && len(s) <= 44 && len(b) == 32
}

// delegationBase58Decode decodes the Bitcoin base58 alphabet.
func delegationBase58Decode(s string) ([]byte, bool) {
	const alpha = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	var out []byte
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(alpha, s[i])
		if d < 0 {
			return nil, false
		}
		carry := d
		for j := len(out) - 1; j >= 0; j-- {
			carry += int(out[j]) * 58
			out[j] = byte(carry)
			carry >>= 8
		}
		for carry > 0 {
			out = append([]byte{byte(carry)}, out...)
			carry >>= 8
		}
	}
	k := 0
	for k < len(out) && out[k] == 0 {
		k++
	}
	return append(make([]byte, zeros), out[k:]...), true
}
