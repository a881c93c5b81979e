package apiclient

import (
	"fmt"
	"strings"
	"testing"
)

func TestSecretsDoNotPrint(t *testing.T) {
	const secret = "super-secret-value-123"
	values := []any{
		Session{AccessToken: secret, RefreshToken: secret, Username: "ada"},
		Config{BaseURL: "http://x", ClientKey: "ck", SecretKey: secret},
		PKCE{Verifier: secret, Challenge: "ch"},
		DelegationToken{Token: secret, Nonce: "n", Faucet: &Faucet{}},
		PostApprovalRequest{Token: secret, Address: "0xabc"},
	}
	for _, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			if out := fmt.Sprintf(verb, v); strings.Contains(out, secret) {
				t.Errorf("%T printed with %s leaks the secret: %s", v, verb, out)
			}
			if out := fmt.Sprintf(verb, &v); strings.Contains(out, secret) {
				t.Errorf("*%T printed with %s leaks the secret: %s", v, verb, out)
			}
		}
	}
}
