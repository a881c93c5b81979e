package apiclient

import "fmt"

// Types that hold secrets (tokens, the secret key, the PKCE verifier) print
// with those fields masked under %v, %+v, %s and %#v, so a stray fmt call or
// log line cannot leak them. The values themselves are untouched.

// mask shows whether a secret is set without showing it.
func mask(v string) string {
	if v == "" {
		return `""`
	}
	return "[redacted]"
}

// String hides the tokens.
func (s Session) String() string {
	exp := "none"
	if !s.ExpiresAt.IsZero() {
		exp = s.ExpiresAt.Format("2006-01-02T15:04:05Z07:00")
	}
	return fmt.Sprintf("Session{AccessToken:%s RefreshToken:%s ExpiresAt:%s Kind:%d Username:%q}",
		mask(s.AccessToken), mask(s.RefreshToken), exp, s.Kind, s.Username)
}

// GoString hides the tokens from %#v too.
func (s Session) GoString() string { return "apiclient." + s.String() }

// String hides the secret key.
func (c Config) String() string {
	return fmt.Sprintf("Config{BaseURL:%q ClientKey:%q ClientID:%q SecretKey:%s US:%t Timeout:%s MaxRetryWait:%s UserAgent:%q}",
		c.BaseURL, c.ClientKey, c.ClientID, mask(c.SecretKey), c.US, c.Timeout, c.MaxRetryWait, c.UserAgent)
}

// GoString hides the secret key from %#v too.
func (c Config) GoString() string { return "apiclient." + c.String() }

// String hides the verifier (the challenge is public).
func (p PKCE) String() string {
	return fmt.Sprintf("PKCE{Verifier:%s Challenge:%q}", mask(p.Verifier), p.Challenge)
}

// GoString hides the verifier from %#v too.
func (p PKCE) GoString() string { return "apiclient." + p.String() }

// String hides the token (single use, but live for ten minutes).
func (t DelegationToken) String() string {
	faucet := "nil"
	if t.Faucet != nil {
		faucet = fmt.Sprintf("%+v", *t.Faucet)
	}
	return fmt.Sprintf("DelegationToken{Token:%s Nonce:%q Status:%d Faucet:%s}", mask(t.Token), t.Nonce, t.Status, faucet)
}

// GoString hides the token from %#v too.
func (t DelegationToken) GoString() string { return "apiclient." + t.String() }

// String hides the delegation token.
func (r PostApprovalRequest) String() string {
	return fmt.Sprintf("PostApprovalRequest{Address:%q Network:%q Currency:%q Amount:%q TxHash:%q SigHash:%q Token:%s Nonce:%q}",
		r.Address, r.Network, r.Currency, r.Amount, r.TxHash, r.SigHash, mask(r.Token), r.Nonce)
}

// GoString hides the delegation token from %#v too.
func (r PostApprovalRequest) GoString() string { return "apiclient." + r.String() }
