package apiclient

import (
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"strconv"
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
func decodeBase58(s string) ([]byte, bool) { return decodeBase58With(s, base58Alphabet) }

// Whitelist address validation, per currency. Forms call
// ValidateWhitelistEntry before sending, so a typo is caught on the entry it
// concerns instead of costing a round trip and a 422.

// WhitelistCurrencies are the currencies the whitelist screen offers, common
// ones first; the gateway may accept others.
var WhitelistCurrencies = []string{"usdc", "usdt", "eth", "matic", "pol", "dai", "btc", "sol", "xrp", "xlm"}

// evmCurrency reports whether currency (lower case) is a token whose
// addresses are EVM hex addresses. (A switch, as is memoCurrency: a
// package map is built before main on every start.)
func evmCurrency(currency string) bool {
	switch currency {
	case "usdc", "usdt", "eth", "matic", "pol", "dai", "musd", "weth", "usde":
		return true
	}
	return false
}

// memoCurrency reports whether currency (lower case) is one whose
// exchanges share one address and tell customers apart with a memo or
// destination tag: an entry without one would send funds nobody can
// attribute.
func memoCurrency(currency string) bool {
	return currency == "xrp" || currency == "xlm"
}

// CurrencyNeedsMemo reports whether whitelist entries of currency must carry
// a memo or destination tag (walletMemo).
func CurrencyNeedsMemo(currency string) bool {
	return memoCurrency(strings.ToLower(strings.TrimSpace(currency)))
}

// ValidateWhitelistAddress checks an address (and its memo) for currency:
// EVM hex for usdc/usdt/eth/matic and similar tokens, a classic r-address
// with a numeric destination tag for xrp, a G-address with a memo for xlm,
// base58check or bech32 for btc, a base58 public key for sol. Other
// currencies only need a non-empty address without spaces.
func ValidateWhitelistAddress(currency, address, memo string) error {
	cur := strings.ToLower(strings.TrimSpace(currency))
	if address == "" {
		return errors.New("address is required")
	}
	if strings.TrimSpace(address) != address || strings.ContainsAny(address, " \t\r\n") {
		return errors.New("address must not contain spaces")
	}
	switch {
	case evmCurrency(cur):
		if !ValidEVMAddress(address) {
			return errors.New("invalid address format: expected 0x followed by 40 hex digits")
		}
	case cur == "btc":
		if !ValidBitcoinAddress(address) {
			return errors.New("invalid address format: expected a Bitcoin address (1…, 3… or bc1…) with a valid checksum")
		}
	case cur == "sol":
		if !ValidSolanaAddress(address) {
			return errors.New("invalid address format: expected a base58 Solana public key")
		}
	case cur == "xrp":
		if !ValidXRPAddress(address) {
			return errors.New("invalid address format: expected a classic XRP address (r…) with a valid checksum")
		}
	case cur == "xlm":
		if !ValidStellarAddress(address) {
			return errors.New("invalid address format: expected a Stellar account (G…, 56 characters)")
		}
	}
	return validateMemo(cur, memo)
}

func validateMemo(cur, memo string) error {
	if !memoCurrency(cur) {
		return nil
	}
	if strings.TrimSpace(memo) == "" {
		if cur == "xrp" {
			return errors.New("destination tag is required for xrp")
		}
		return errors.New("memo is required for " + cur)
	}
	switch cur {
	case "xrp":
		n, err := strconv.ParseUint(memo, 10, 64)
		if err != nil || !allDigits(memo) || n > 4294967295 {
			return errors.New("destination tag must be a whole number from 0 to 4294967295")
		}
	case "xlm":
		if len(memo) > 28 {
			return errors.New("memo must be at most 28 bytes")
		}
	}
	return nil
}

// ValidateWhitelistEntry checks every field of one entry and returns the
// problems by field (currency, name, beneficiaryFirstName,
// beneficiaryLastName, walletAddress, walletMemo); nil when it can be sent.
func ValidateWhitelistEntry(e NewWhitelistEntry) []FieldError {
	var out []FieldError
	req := func(field, v, what string) {
		if strings.TrimSpace(v) == "" {
			out = append(out, FieldError{Field: field, Message: what + " is required"})
		}
	}
	req("currency", e.Currency, "currency")
	req("name", e.Name, "name")
	req("beneficiaryFirstName", e.BeneficiaryFirstName, "beneficiary first name")
	req("beneficiaryLastName", e.BeneficiaryLastName, "beneficiary last name")
	if err := ValidateWhitelistAddress(e.Currency, e.WalletAddress, e.WalletMemo); err != nil {
		field := "walletAddress"
		if e.WalletAddress != "" && strings.Contains(err.Error(), "memo") || strings.Contains(err.Error(), "destination tag") {
			field = "walletMemo"
		}
		out = append(out, FieldError{Field: field, Message: err.Error()})
	} else if !memoCurrency(strings.ToLower(e.Currency)) && e.WalletMemo != "" && len(e.WalletMemo) > 64 {
		out = append(out, FieldError{Field: "walletMemo", Message: "memo must be at most 64 characters"})
	}
	return out
}

// xrpAlphabet is the base58 alphabet of the XRP Ledger (not Bitcoin's).
const xrpAlphabet = "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz"

// ValidXRPAddress reports whether s is a classic XRP Ledger address: r…,
// base58 in the XRP alphabet, version byte 0, 20-byte account id and a
// double-SHA-256 checksum.
func ValidXRPAddress(s string) bool {
	if len(s) < 25 || len(s) > 35 || s[0] != 'r' {
		return false
	}
	b, ok := decodeBase58With(s, xrpAlphabet)
	return ok && len(b) == 25 && b[0] == 0 && checksumOK(b)
}

// ValidBitcoinAddress reports whether s is a mainnet Bitcoin address:
// base58check P2PKH (1…) or P2SH (3…), or segwit bech32/bech32m (bc1…).
func ValidBitcoinAddress(s string) bool {
	if strings.HasPrefix(strings.ToLower(s), "bc1") {
		return validSegwit(s)
	}
	if len(s) < 26 || len(s) > 35 || (s[0] != '1' && s[0] != '3') {
		return false
	}
	b, ok := decodeBase58(s)
	return ok && len(b) == 25 && (b[0] == 0x00 || b[0] == 0x05) && checksumOK(b)
}

// ValidStellarAddress reports whether s is a Stellar account id: G…, 56
// base32 characters holding a version byte, a 32-byte key and a CRC16.
func ValidStellarAddress(s string) bool {
	if len(s) != 56 || s[0] != 'G' {
		return false
	}
	b, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(s)
	if err != nil || len(b) != 35 || b[0] != 6<<3 {
		return false
	}
	crc := crc16XModem(b[:33])
	return b[33] == byte(crc) && b[34] == byte(crc>>8)
}

// checksumOK checks a base58check payload: the last 4 bytes are the start
// of SHA-256(SHA-256(rest)).
func checksumOK(b []byte) bool {
	n := len(b) - 4
	h1 := sha256.Sum256(b[:n])
	h2 := sha256.Sum256(h1[:])
	return string(h2[:4]) == string(b[n:])
}

// decodeBase58With decodes base58 in the given alphabet; leading "zero"
// characters (the alphabet's first) become zero bytes.
func decodeBase58With(s, alphabet string) ([]byte, bool) {
	var index [256]int
	for i := range index {
		index[i] = -1
	}
	for i := 0; i < len(alphabet); i++ {
		index[alphabet[i]] = i
	}
	zeros := 0
	for zeros < len(s) && s[zeros] == alphabet[0] {
		zeros++
	}
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
	k := 0
	for k < len(out) && out[k] == 0 {
		k++
	}
	return append(make([]byte, zeros), out[k:]...), true
}

func crc16XModem(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc ^= uint16(c) << 8
		for i := 0; i < 8; i++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

const bech32Charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

func bech32Polymod(values []byte) uint32 {
	gen := [5]uint32{0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3}
	chk := uint32(1)
	for _, v := range values {
		top := chk >> 25
		chk = (chk&0x1ffffff)<<5 ^ uint32(v)
		for i := 0; i < 5; i++ {
			if (top>>i)&1 == 1 {
				chk ^= gen[i]
			}
		}
	}
	return chk
}

// validSegwit checks a bc1 address (BIP 173 / BIP 350): one case, the
// bech32 checksum for witness version 0 and bech32m for 1 to 16, and a
// witness program of a valid length.
func validSegwit(s string) bool {
	if len(s) < 14 || len(s) > 74 || (strings.ToLower(s) != s && strings.ToUpper(s) != s) {
		return false
	}
	s = strings.ToLower(s)
	pos := strings.LastIndexByte(s, '1')
	if pos != 2 || s[:2] != "bc" || len(s)-pos-1 < 7 {
		return false
	}
	data := make([]byte, 0, len(s)-pos-1)
	for i := pos + 1; i < len(s); i++ {
		d := strings.IndexByte(bech32Charset, s[i])
		if d < 0 {
			return false
		}
		data = append(data, byte(d))
	}
	values := []byte{3, 3, 0, 2, 3} // hrp "bc" expanded
	values = append(values, data...)
	pm := bech32Polymod(values)
	ver := data[0]
	if ver > 16 || (ver == 0 && pm != 1) || (ver != 0 && pm != 0x2bc830a3) {
		return false
	}
	// Convert the program from 5-bit to 8-bit groups.
	acc, bits, n := 0, 0, 0
	for _, v := range data[1 : len(data)-6] {
		acc = acc<<5 | int(v)
		bits += 5
		for bits >= 8 {
			bits -= 8
			n++
		}
	}
	if bits >= 5 || acc&((1<<bits)-1) != 0 {
		return false
	}
	if n < 2 || n > 40 || (ver == 0 && n != 20 && n != 32) {
		return false
	}
	return true
}
