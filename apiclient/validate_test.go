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

func TestValidateWhitelistAddressPerCurrency(t *testing.T) {
	good := map[string][][2]string{ // currency -> {address, memo}
		"usdc":  {{"0x52908400098527886E0F7030069857D2E4169EE7", ""}},
		"usdt":  {{"0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae", ""}},
		"eth":   {{"0x00000000219ab540356cBB839Cbe05303d7705Fa", ""}},
		"matic": {{"0xBE0eB53F46cd790Cd13851d5EFf43D12404d33E8", ""}},
		"btc": {{"1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", ""}, {"3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", ""},
			{"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", ""}, {"bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297", ""}},
		"sol": {{"4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T", ""}},
		"xrp": {{"rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe", "123456"}, {"rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", "0"}},
		"xlm": {{"GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7", "invoice 42"}},
	}
	for cur, cases := range good {
		for _, c := range cases {
			if err := ValidateWhitelistAddress(cur, c[0], c[1]); err != nil {
				t.Errorf("%s %q memo %q: %v", cur, c[0], c[1], err)
			}
		}
	}
	bad := []struct{ cur, addr, memo, want string }{
		{"usdc", "", "", "required"},
		{"usdc", "0x123", "", "invalid address format"},
		{"eth", "0x52908400098527886E0F7030069857D2E4169EEZ", "", "invalid address format"},
		{"usdt", "52908400098527886E0F7030069857D2E4169EE7aa", "", "invalid address format"},
		{"usdc", " 0x52908400098527886E0F7030069857D2E4169EE7", "", "spaces"},
		{"btc", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3", "", "Bitcoin"}, // checksum
		{"btc", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx", "", "Bitcoin"},
		{"btc", "0x52908400098527886E0F7030069857D2E4169EE7", "", "Bitcoin"},
		{"sol", "0x52908400098527886E0F7030069857D2E4169EE7", "", "Solana"},
		{"xrp", "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYf", "1", "XRP"}, // checksum
		{"xrp", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "1", "XRP"},
		{"xrp", "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe", "", "destination tag is required"},
		{"xrp", "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe", "abc", "whole number"},
		{"xrp", "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe", "4294967296", "whole number"},
		{"xlm", "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7", "", "memo is required"},
		{"xlm", "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN6", "m", "Stellar"},
	}
	for _, b := range bad {
		err := ValidateWhitelistAddress(b.cur, b.addr, b.memo)
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s %q memo %q: %v, want %q", b.cur, b.addr, b.memo, err, b.want)
		}
	}
	if !CurrencyNeedsMemo("XRP") || !CurrencyNeedsMemo("xlm") || CurrencyNeedsMemo("usdc") {
		t.Error("CurrencyNeedsMemo")
	}
}

func TestValidateWhitelistEntryNamesFields(t *testing.T) {
	errs := ValidateWhitelistEntry(NewWhitelistEntry{Currency: "xrp", WalletAddress: "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe"})
	var fields []string
	for _, e := range errs {
		fields = append(fields, e.Field)
	}
	if got := strings.Join(fields, ","); got != "name,beneficiaryFirstName,beneficiaryLastName,walletMemo" {
		t.Fatalf("fields %s", got)
	}
	ok := NewWhitelistEntry{Currency: "usdc", Name: "n", BeneficiaryFirstName: "a", BeneficiaryLastName: "b", WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7"}
	if errs := ValidateWhitelistEntry(ok); errs != nil {
		t.Fatalf("good entry: %v", errs)
	}
	ok.WalletAddress = "0x1"
	if errs := ValidateWhitelistEntry(ok); len(errs) != 1 || errs[0].Field != "walletAddress" {
		t.Fatalf("bad address: %v", errs)
	}
}
