package apiclient

import (
	"strings"
	"testing"
)

func TestValidEVMAddress(t *testing.T) {
	good := []string{
		"0x52908400098527886E0F7030069857D2E4169EE7",
		"0xde709f2102306220921060314715629080e2fb77",
		"0x0000000000000000000000000000000000000000",
	}
	bad := []string{
		"", "0x", "52908400098527886E0F7030069857D2E4169EE7",
		"0x52908400098527886E0F7030069857D2E4169EE", // 39 hex
		"0x52908400098527886E0F7030069857D2E4169EE77",
		"0X52908400098527886E0F7030069857D2E4169EE7",
		"0x52908400098527886E0F7030069857D2E4169EEg",
		" 0x52908400098527886E0F7030069857D2E4169EE7",
	}
	for _, s := range good {
		if !ValidEVMAddress(s) {
			t.Errorf("ValidEVMAddress(%q) = false", s)
		}
	}
	for _, s := range bad {
		if ValidEVMAddress(s) {
			t.Errorf("ValidEVMAddress(%q) = true", s)
		}
	}
}

func TestValidSolanaAddress(t *testing.T) {
	good := []string{
		"11111111111111111111111111111111",             // system program: 32 zero bytes
		"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",  // SPL token program
		"EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", // USDC mint
		"4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T",
	}
	bad := []string{
		"", "1111111111111111111111111111111", // 31 chars
		"0OIl1111111111111111111111111111111",           // not base58
		"EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1vv", // 45 chars
		"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",  // 44 chars, > 32 bytes
		"2222222222222222222222222222222222",            // 34 chars, < 32 bytes? checked below
		"0x52908400098527886E0F7030069857D2E4169EE7",
	}
	for _, s := range good {
		if !ValidSolanaAddress(s) {
			b, _ := decodeBase58(s)
			t.Errorf("ValidSolanaAddress(%q) = false (%d bytes)", s, len(b))
		}
	}
	for _, s := range bad {
		if ValidSolanaAddress(s) {
			t.Errorf("ValidSolanaAddress(%q) = true", s)
		}
	}
}

func TestDecodeBase58(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"1":                "\x00",
		"11":               "\x00\x00",
		"2g":               "a",
		"StV1DL6CwTryKyV":  "hello world",
		"1StV1DL6CwTryKyV": "\x00hello world",
	} {
		got, ok := decodeBase58(in)
		if !ok || string(got) != want {
			t.Errorf("decodeBase58(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := decodeBase58("0"); ok {
		t.Error("0 accepted")
	}
}

func TestValidHexColor(t *testing.T) {
	for _, s := range []string{"#fff", "#FFF", "#EFEFEF", "#00aaFF", "#123"} {
		if !ValidHexColor(s) {
			t.Errorf("ValidHexColor(%q) = false", s)
		}
	}
	for _, s := range []string{"", "#", "fff", "#ffff", "#fffff", "#fffffff", "#ggg", "red", "EFEFEF", "#EFEFEG", " #fff"} {
		if ValidHexColor(s) {
			t.Errorf("ValidHexColor(%q) = true", s)
		}
	}
}

func TestValidDecimalAmount(t *testing.T) {
	for _, s := range []string{"1", "0.5", "10.25", "0.000001", "123456.123456", "100.000000", "007"} {
		if err := ValidDecimalAmount(s); err != nil {
			t.Errorf("ValidDecimalAmount(%q) = %v", s, err)
		}
	}
	for s, want := range map[string]string{
		"":                 "required",
		"0":                "greater than zero",
		"0.000000":         "greater than zero",
		"-1":               "greater than zero",
		"+1":               "without a sign",
		"1e3":              "exponent",
		"1E-2":             "exponent",
		"1,000":            "dot",
		"0.0000001":        "more than 6 decimal places",
		"1.":               "plain decimal",
		".5":               "plain decimal",
		"1.2.3":            "plain decimal",
		"abc":              "plain decimal",
		"NaN":              "plain decimal",
		"Inf":              "plain decimal",
		"0x10":             "plain decimal",
		" 1":               "spaces",
		"1 ":               "spaces",
		"1234567890123456": "too large",
		"1_000":            "plain decimal",
		"１":                "plain decimal",
	} {
		err := ValidDecimalAmount(s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ValidDecimalAmount(%q) = %v, want an error about %q", s, err, want)
		}
	}
}
