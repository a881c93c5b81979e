package e2e

import (
	"strings"
	"testing"

	"github.com/skip2/go-qrcode"

	"cardterm/ui/uitest"
)

// qrBits is the module matrix go-qrcode makes for link, as the app does.
func qrBits(t *testing.T, link string) [][]bool {
	t.Helper()
	q, err := qrcode.New(link, qrcode.Low)
	if err != nil {
		t.Fatal(err)
	}
	q.DisableBorder = true
	return q.Bitmap()
}

// decodeScreenQR reads the half-block QR code off a captured screen: the
// consecutive lines holding block characters.
func decodeScreenQR(screen string) [][]bool {
	var lines []string
	for _, line := range strings.Split(screen, "\n") {
		if strings.ContainsAny(line, "█▀▄") {
			lines = append(lines, line)
		} else if len(lines) > 0 {
			break
		}
	}
	return uitest.DecodeHalfBlocks(lines)
}

// TestDelegationFaucetAndChainConfig: alice asks for a token with gas on
// linea and sees it confirmed with the token masked; faye, who used the
