package apiclient

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// DelegationTokenLifetime is how long a delegation token lives ("about 10
// minutes", single use), so screens can count down without asking.
const DelegationTokenLifetime = 600 // seconds

// Faucet statuses, as the interface names them. Other values may arrive;
// they are kept and shown as they are.
const (
	FaucetConfirmed = "confirmed"
	FaucetPending   = "pending"
	FaucetDeclined  = "declined"
)

// FaucetNetworks are the networks the delegation token's gas faucet pays on.
var FaucetNetworks = []string{"linea", "solana", "base"}

// ChainNetworks are the networks the chain configuration can be filtered by.
var ChainNetworks = []string{"ethereum", "linea", "solana", "etherlink"}

// DelegationTokenRequest is the query of GET /v1/delegation/token. With
// Faucet set, Address and Network are required (the faucet sends gas to
// Address on Network, once per user across all networks).
type DelegationTokenRequest struct {
	Faucet  bool
	Address string
	Network string // linea, solana or base
}

// Faucet is the outcome of the gas faucet; present only when it was asked.
type Faucet struct {
	// Success says whether the faucet request was processed.
	Success bool   `json:"success"`
	Network string `json:"network"`
	// Status is confirmed, pending or declined; absent on a service error.
	Status string `json:"status"`
	// TransactionHash is the gas transaction: when confirmed, and also the
	// earlier grant when the user already received funds.
	TransactionHash string `json:"transactionHash"`
	Message         string `json:"message"` // informational, when pending
	Error           string `json:"error"`   // when Success is false
	Extra           Extra  `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// DelegationToken is a single-use token (about 10 minutes) and the nonce to
// send with it in the post-approval step. Token is a secret: never log it.
type DelegationToken struct {
	Token  string  `json:"token"`
	Nonce  string  `json:"nonce"`
	Faucet *Faucet `json:"faucet"`
	Extra  Extra   `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
	// Status is the HTTP status: 200, or 207 when the faucet was asked but
	// did not pay (the token is usable all the same). Not on the wire.
	Status int `json:"-"`
}

// FaucetFailed reports the 207 case: a token was issued but the faucet did
// not pay (already received, declined, or a faucet service error).
func (t DelegationToken) FaucetFailed() bool {
	return t.Status == http.StatusMultiStatus || (t.Faucet != nil && !t.Faucet.Success)
}

// ValidateFaucetAddress checks address for a faucet network: an EVM address
// for linea and base, a base58 public key for solana. nil when it may be
// sent.
func ValidateFaucetAddress(network, address string) error {
	if address == "" {
		return errString("address is required for the faucet")
	}
	switch network {
	case "solana":
		if !ValidSolanaAddress(address) {
			return errString("invalid address format: solana needs a base58 public key")
		}
	case "linea", "base":
		if !ValidEVMAddress(address) {
			return errString("invalid address format: " + network + " needs 0x followed by 40 hex digits")
		}
	default:
		return errString("network must be one of " + strings.Join(FaucetNetworks, ", "))
	}
	return nil
}

type errString string

func (e errString) Error() string { return string(e) }

// DelegationToken asks for a delegation token, and gas from the faucet when
// r.Faucet is set. A 207 is not an error: the token comes back with
// Status 207 and the faucet's reason in Faucet.
func (c *Client) DelegationToken(ctx context.Context, r DelegationTokenRequest) (DelegationToken, error) {
	if r.Faucet {
		if err := ValidateFaucetAddress(r.Network, r.Address); err != nil {
			return DelegationToken{}, &Error{Op: "DelegationToken", Message: err.Error()}
		}
	}
	var status int
	req := DelegationTokenCall(r).r
	req.status = &status
	out, err := answer[DelegationToken](ctx, c, req)
	if err != nil {
		return DelegationToken{}, err
	}
	out.Status = status
	if out.Token == "" {
		return DelegationToken{}, &Error{Op: "DelegationToken", Status: status, Message: "the gateway did not return a delegation token"}
	}
	return out, nil
}

// DelegationTokenCall declares the request DelegationToken sends.
func DelegationTokenCall(r DelegationTokenRequest) Call {
	q := url.Values{}
	if r.Faucet {
		q.Set("faucet", "true")
	}
	if r.Address != "" {
		q.Set("address", r.Address)
	}
	if r.Network != "" {
		q.Set("network", r.Network)
	}
	return Call{request{op: "DelegationToken", method: http.MethodGet, path: "/v1/delegation/token", query: q, family: familyUser}}
}

// ChainToken is a token the delegation contract handles on a network.
type ChainToken struct {
	Symbol   string `json:"symbol"`
	Decimals int    `json:"decimals"`
	Address  string `json:"address"`
	Extra    Extra  `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// ChainNetwork is one network of the chain configuration.
type ChainNetwork struct {
	Network            string                `json:"network"`
	Environment        string                `json:"environment"`
	ChainID            string                `json:"chainId"`
	DelegationContract string                `json:"delegationContract"`
	Tokens             map[string]ChainToken `json:"tokens"`
	Extra              Extra                 `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// SortedTokens lists the tokens by symbol, for a stable display.
func (n ChainNetwork) SortedTokens() []ChainToken {
	keys := slices.Sorted(maps.Keys(n.Tokens))
	out := make([]ChainToken, 0, len(keys))
	for _, k := range keys {
		t := n.Tokens[k]
		if t.Symbol == "" {
			t.Symbol = k
		}
		out = append(out, t)
	}
	return out
}

// ChainConfig is the delegation chain configuration (GET
// /v1/delegation/chain/config).
type ChainConfig struct {
	Networks []ChainNetwork `json:"networks"`
	Count    int            `json:"count"`
	Links    struct {
		Self string `json:"self"`
	} `json:"_links"`
	Extra Extra `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// ChainConfig fetches the chain configuration of one network ("" = all).
// With Config.US it asks for the US routing (region=us and x-us-env). A
// network with no configuration answers 404 (IsNotFound).
func (c *Client) ChainConfig(ctx context.Context, network string) (ChainConfig, error) {
	if err := checkChainNetwork(network); err != nil {
		return ChainConfig{}, err
	}
	q := url.Values{}
	if network != "" {
		q.Set("network", network)
	}
	if c.cfg.US {
		q.Set("region", "us")
	}
	return answer[ChainConfig](ctx, c, request{op: "ChainConfig", method: http.MethodGet,
		path: "/v1/delegation/chain/config", query: q, family: familyUser})
}

// Post-approval chains: the path segment of the post-approval operation.
const (
	ChainEVM    = "evm"
	ChainSolana = "solana"
)

// ChainOf is the post-approval chain of a network: solana, else evm.
func ChainOf(network string) string {
	if strings.EqualFold(network, "solana") {
		return ChainSolana
	}
	return ChainEVM
}

// PostApprovalRequest is the body of the post-approval step, sent after
// the user approved the delegation contract on chain. Token and Nonce come
// from DelegationToken; Token is a secret.
type PostApprovalRequest struct {
	Address    string `json:"address"`
	Network    string `json:"network"`
	Currency   string `json:"currency"`
	Amount     string `json:"amount"` // decimal string, never a float
	TxHash     string `json:"txHash"`
	SigHash    string `json:"sigHash"`
	SigMessage string `json:"sigMessage"`
	Token      string `json:"token"`
	Nonce      string `json:"nonce"`
}

// ValidatePostApproval checks a post-approval for chain before it is sent
// and returns the problems by wire field name; nil when it may be sent.
func ValidatePostApproval(chain string, r PostApprovalRequest) []FieldError {
	var out []FieldError
	bad := func(field, msg string) { out = append(out, FieldError{Field: field, Message: msg}) }
	solana := chain == ChainSolana
	switch {
	case r.Address == "":
		bad("address", "address is required")
	case solana && !ValidSolanaAddress(r.Address):
		bad("address", "invalid address format: expected a base58 Solana public key")
	case !solana && !ValidEVMAddress(r.Address):
		bad("address", "invalid address format: expected 0x followed by 40 hex digits")
	}
	if r.Network == "" {
		bad("network", "network is required")
	} else if ChainOf(r.Network) != chain {
		bad("network", "network "+r.Network+" does not belong to the "+chain+" chain")
	}
	if r.Currency == "" {
		bad("currency", "currency is required")
	}
	if err := ValidDecimalAmount(r.Amount); err != nil {
		bad("amount", err.Error())
	}
	if solana {
		if !validBase58Len(r.TxHash, 64) {
			bad("txHash", "transaction hash must be a base58 signature")
		}
		if !validBase58Len(r.SigHash, 64) && !validBase58Len(r.SigHash, 32) {
			bad("sigHash", "signature must be base58")
		}
	} else {
		if !validHexBytes(r.TxHash, 32) {
			bad("txHash", "transaction hash must be 0x followed by 64 hex digits")
		}
		if !validHexBytes(r.SigHash, 32) && !validHexBytes(r.SigHash, 64) && !validHexBytes(r.SigHash, 65) {
			bad("sigHash", "signature must be 0x followed by 64 or 130 hex digits")
		}
	}
	if strings.TrimSpace(r.SigMessage) == "" {
		bad("sigMessage", "signed message is required")
	}
	if r.Token == "" {
		bad("token", "token is required: request a delegation token first")
	}
	if r.Nonce == "" {
		bad("nonce", "nonce is required: it comes with the delegation token")
	}
	return out
}

// validHexBytes reports 0x followed by exactly n bytes of hex.
func validHexBytes(s string, n int) bool {
	if len(s) != 2+2*n || s[0] != '0' || s[1] != 'x' {
		return false
	}
	for i := 2; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// validBase58Len reports base58 text decoding to exactly n bytes.
func validBase58Len(s string, n int) bool {
	b, ok := decodeBase58(s)
	return s != "" && ok && len(b) == n
}

// PostApproval registers an on-chain approval with the gateway (POST
// /v1/delegation/{evm,solana}/post-approval). It consumes the delegation
// token; afterwards the address is the user's external wallet. Never
// retried.
func (c *Client) PostApproval(ctx context.Context, chain string, r PostApprovalRequest) error {
	if chain != ChainEVM && chain != ChainSolana {
		return &Error{Op: "PostApproval", Message: "chain must be evm or solana"}
	}
	return c.doSuccess(ctx, PostApprovalCall(chain, r).r)
}

// PostApprovalCall declares the request PostApproval sends; its Lines
// show the token masked.
func PostApprovalCall(chain string, r PostApprovalRequest) Call {
	return Call{request{op: "PostApproval", method: http.MethodPost,
		path: pathf("/v1/delegation/%s/post-approval", chain), body: r, family: familyUser, secrets: []string{r.Token}}}
}
