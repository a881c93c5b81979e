package cli

import "testing"

// The order payment method takes the interface's one form, in any case.
func TestPaymentMethodSetting(t *testing.T) {
	row := settingNamed("order-payment-method")
	for _, good := range []string{"CRYPTO_EXTERNAL_DAIMO", "crypto_external_coinbase", "CRYPTO_EXTERNAL_PAY_2"} {
		if _, err := row.parse(good); err != nil {
			t.Errorf("%s: %v", good, err)
		}
	}
	for _, bad := range []string{"DAIMO", "CRYPTO_EXTERNAL_", "CRYPTO_EXTERNAL_A B", "card"} {
		if _, err := row.parse(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if got, err := settingNamed("alert-interval").parse("2s"); err != nil || got != "2s" {
		t.Fatalf("alert-interval: %q %v", got, err)
	}
}
