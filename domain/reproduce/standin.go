package reproduce

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"

	"cardterm/domain/casefile"
	"cardterm/domain/lazy"
)

// Stand-ins: the same value always gets the same stand-in (the records
// still point at each other), and a stand-in has the shape of what it
// replaces, so the sandbox's screens and checks read it as they read the
// original.

// StandIn is the stand-in of an id: a UUID-shaped hash of its kind and
// value, the same each time; "" stays "".
func StandIn(kind, id string) string {
	if id == "" {
		return ""
	}
	h := hex.EncodeToString(digest(kind, id))
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-8" + h[17:20] + "-" + h[20:32]
}

func digest(kind, value string) []byte {
	sum := sha256.Sum256([]byte("cardterm-reproduce\x00" + kind + "\x00" + value))
	return sum[:]
}

// The alphabets a wallet address is written in.
const (
	hexDigits = "0123456789abcdef"
	base58    = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	rippled58 = "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz"
	bech32    = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
)

var (
	evmAddress    = lazy.Regexp{Pattern: `^0x[0-9a-fA-F]{40}$`}
	bech32Address = lazy.Regexp{Pattern: `^(bc1|tb1)[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{11,71}$`}
	xrpAddress    = lazy.Regexp{Pattern: `^r[` + rippled58 + `]{24,34}$`}
	base58Address = lazy.Regexp{Pattern: `^[` + base58 + `]{25,44}$`}
	digitsOnly    = lazy.Regexp{Pattern: `^[0-9]+$`}
)

// Address is the stand-in of a wallet address, of the same format and
// length: an EVM address stays 0x and 40 hex digits, a bech32 address
// keeps its prefix, an XRP address its r and the XRP alphabet, a base58
// address (Solana, Bitcoin, Tron) its first character and base58. Any
// other text becomes a stand-in id.
func Address(address string) string {
	switch a := strings.TrimSpace(address); {
	case a == "":
		return ""
	case evmAddress.Get().MatchString(a):
		return "0x" + drawn("address", a, hexDigits, 40)
	case bech32Address.Get().MatchString(strings.ToLower(a)):
		return a[:3] + drawn("address", a, bech32, len(a)-3)
	case xrpAddress.Get().MatchString(a):
		return "r" + drawn("address", a, rippled58, len(a)-1)
	case base58Address.Get().MatchString(a):
		return a[:1] + drawn("address", a, base58, len(a)-1)
	}
	return StandIn("address", address)
}

// Tag is the stand-in of a memo or destination tag: digits stay digits
// of the same length (an XRP tag stays a tag), other text a stand-in id.
func Tag(tag string) string {
	if tag == "" {
		return ""
	}
	if digitsOnly.Get().MatchString(tag) {
		out := drawn("tag", tag, "0123456789", len(tag))
		if len(out) > 1 && out[0] == '0' {
			out = "1" + out[1:]
		}
		return out
	}
	return StandIn("tag", tag)
}

// drawn is n characters of alphabet drawn from the value's hash.
func drawn(kind, value, alphabet string, n int) string {
	out := make([]byte, 0, n)
	for block := 0; len(out) < n; block++ {
		for _, b := range digest(kind, value+"\x00"+string(rune('a'+block))) {
			if len(out) == n {
				break
			}
			out = append(out, alphabet[int(b)%len(alphabet)])
		}
	}
	return string(out)
}

// scrubbed is text from a customer's record with every card number and
// e-mail taken out, and each of names (the customer's, as the case kept
// them) replaced.
func scrubbed(text string, names []string) string {
	text = casefile.Scrub(text)
	for _, name := range names {
		if len(name) >= 2 {
			text = replaceFold(text, name, "[name left out]")
		}
	}
	return text
}

// replaceFold replaces every word old in s, whatever its case.
func replaceFold(s, old, with string) string {
	re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(old) + `\b`)
	return re.ReplaceAllLiteralString(s, with)
}
