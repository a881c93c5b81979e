package reproduce

import (
	"regexp"
	"strings"
	"testing"
)

// A stand-in address keeps the format of the address it replaces, is
// the same each time, and is never the original.
func TestAddressKeepsItsFormat(t *testing.T) {
	for _, tc := range []struct {
		name, address string
		format        *regexp.Regexp
	}{
		{"evm", "0x52908400098527886E0F7030069857D2E4169EE7", regexp.MustCompile(`^0x[0-9a-f]{40}$`)},
		{"solana", "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV", regexp.MustCompile(`^7[` + base58 + `]{42}$`)},
		{"bitcoin bech32", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", regexp.MustCompile(`^bc1[` + bech32 + `]{39}$`)},
		{"xrp", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", regexp.MustCompile(`^r[` + rippled58 + `]{33}$`)},
		{"tron", "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL", regexp.MustCompile(`^T[` + base58 + `]{33}$`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Address(tc.address)
			if !tc.format.MatchString(got) || strings.EqualFold(got, tc.address) || got != Address(tc.address) {
				t.Fatalf("Address(%s) = %s", tc.address, got)
			}
		})
	}
}

func TestTagStaysATag(t *testing.T) {
	got := Tag("1234567890")
	if !regexp.MustCompile(`^[1-9][0-9]{9}$`).MatchString(got) || got == "1234567890" {
		t.Fatalf("Tag = %s", got)
	}
}

func TestScrubbedTakesNamesOutOfMerchantText(t *testing.T) {
	got := scrubbed("Transfer to Alice MARTIN alice@x.test 4111111111111111, Paris FR", []string{"Alice", "Martin"})
	for _, personal := range []string{"Alice", "MARTIN", "alice@x.test", "4111111111111111"} {
		if strings.Contains(got, personal) {
			t.Fatalf("%q left in %q", personal, got)
		}
	}
	if !strings.Contains(got, "Paris FR") {
		t.Fatalf("the place went too: %q", got)
	}
}

func TestScreenOf(t *testing.T) {
	for title, want := range map[string]string{
		"USDC wallet (Wallets screen, approved session)":                   "Wallets",
		"transaction abc (Transactions screen, approved session)":          "Transactions",
		"profile (Account screen, approved session; personal data masked)": "Account",
		"consent KYC (GRANTED) in set s1":                                  "",
	} {
		if got := screenOf(title); got != want {
			t.Errorf("screenOf(%q) = %q, want %q", title, got, want)
		}
	}
}
