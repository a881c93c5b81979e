package uitest

import (
	"testing"

	qrcode "github.com/skip2/go-qrcode"
)

// ReadQR reads back what the encoder the app draws with wrote, at every
// version up to 5 and in every segment mode.
func TestReadQRReadsWhatWasEncoded(t *testing.T) {
	for _, text := range []string{
		"1", "HELLO WORLD", "0123456789012345",
		"0x52908400098527886E0F7030069857D2E4169EE7",
		"rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe",
		"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
		"http://127.0.0.1:41234/pin-direct/set?token=0b1c2d3e-4f50-4617-8899-aabbccddeeff",
	} {
		for _, level := range []qrcode.RecoveryLevel{qrcode.Low, qrcode.Medium} {
			q, err := qrcode.New(text, level)
			if err != nil {
				t.Fatal(err)
			}
			q.DisableBorder = true
			if level == qrcode.Medium && q.VersionNumber > 3 {
				continue // interleaved blocks: not read (the app draws at Low)
			}
			got, err := ReadQR(q.Bitmap())
			if err != nil || got != text {
				t.Errorf("%q (level %d, version %d): read %q, %v", text, level, q.VersionNumber, got, err)
			}
		}
	}
}
