package apiclient

import (
	"errors"
	"strings"
)

// ValidEVMAddress reports whether s looks like an EVM address (0x and 40
// hex digits), so forms can refuse a typo before anything is sent. The
// EIP-55 checksum is not checked.
func ValidEVMAddress(s string) bool {
	if len(s) != 42 || s[0] != '0' || s[1] != 'x' {
		return false
	}
	for i := 2; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// ValidSolanaAddress reports whether s is a Solana public key: base58,
// 32 to 44 characters, decoding to exactly 32 bytes.
func ValidSolanaAddress(s string) bool {
	if len(s) < 32 || len(s) > 44 {
		return false
	}
	b, ok := decodeBase58(s)
	return ok && len(b) == 32
}

// ValidHexColor reports whether s is #RGB or #RRGGBB, the formats the
// hosted PIN pages accept in customCss.
func ValidHexColor(s string) bool {
	if len(s) != 4 && len(s) != 7 || s[0] != '#' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// USDCDecimals is how many fraction digits a USDC amount may carry.
const USDCDecimals = 6

// ValidDecimalAmount checks a money amount as typed, before it is sent as a
// string: plain positive decimal, no sign, no exponent, at most
// USDCDecimals fraction digits. Money never goes through a float.
func ValidDecimalAmount(s string) error {
	switch {
	case s == "":
		return errors.New("amount is required")
	case strings.TrimSpace(s) != s:
		return errors.New("amount must not have spaces around it")
	case s[0] == '-':
		return errors.New("amount must be greater than zero")
	case s[0] == '+':
		return errors.New("amount must be written without a sign")
	case strings.ContainsAny(s, "eE"):
		return errors.New("amount must be a plain decimal number, without an exponent")
	case strings.Contains(s, ","):
		return errors.New("amount must use a dot as decimal separator and no thousands separators")
	}
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" || !allDigits(whole) || (hasDot && (frac == "" || !allDigits(frac))) {
		return errors.New("amount must be a plain decimal number such as 12.50")
	}
	if len(whole) > 15 {
		return errors.New("amount is too large")
	}
	if len(frac) > USDCDecimals {
		return errors.New("amount has more than 6 decimal places")
	}
	if strings.Trim(whole, "0") == "" && strings.Trim(frac, "0") == "" {
		return errors.New("amount must be greater than zero")
	}
	return nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// decodeBase58 decodes Bitcoin-alphabet base58 (the one Solana uses).
func decodeBase58(s string) ([]byte, bool) {
	var index [256]int
	for i := range index {
		index[i] = -1
	}
	for i := 0; i < len(base58Alphabet); i++ {
		index[base58Alphabet[i]] = i
	}
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	// Big-endian base-256 accumulator.
	var out []byte
	for i := 0; i < len(s); i++ {
		d := index[s[i]]
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
	// Strip the accumulator's leading zeros, then add one per leading '1'.
	k := 0
	for k < len(out) && out[k] == 0 {
		k++
	}
	return append(make([]byte, zeros), out[k:]...), true
}
