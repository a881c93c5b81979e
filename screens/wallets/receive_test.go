package wallets

import (
	"context"
	"strings"
	"testing"

	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui/uitest"
)

// readScreenQR reads the code drawn in the body back to its text.
func readScreenQR(t *testing.T, body string) string {
	t.Helper()
	var lines []string
	for _, line := range strings.Split(uitest.Plain(body), "\n") {
		if i := strings.IndexAny(line, "█▀▄"); i >= 0 || len(lines) > 0 {
			if i < 0 {
				break
			}
			// The words beside the code hold no block: DecodeHalfBlocks
			// keeps the box of the dark modules, the code alone.
			lines = append(lines, line)
		}
	}
	text, err := uitest.ReadQR(uitest.DecodeHalfBlocks(lines))
	if err != nil {
		t.Fatalf("the code on screen does not read: %v\n%s", err, strings.Join(lines, "\n"))
	}
	return text
}

// R opens the receive view (a layer) of the selected wallet: its QR code
// reads back to the address, with the network, currency and warning; c
// copies the address.
func TestReceiveShowsTheAddressAsAQRCode(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test") // in colour the dark modules are the ink
	a.Open(screenkit.WalletsScreen)
	wallets, err := a.Client.InternalWallets(context.Background())
	if err != nil || len(wallets) == 0 {
		t.Fatal(err)
	}
	a.Keys("R")
	if top, open := a.UI().TopLayer(); !open {
		t.Fatalf("R opened no layer (%T)", top)
	}
	if got := readScreenQR(t, a.UI().BodyView()); got != wallets[0].Address {
		t.Fatalf("the code reads %q, the address is %q", got, wallets[0].Address)
	}
	a.MustShow(t, "Receive USDC", "Network  linea", "Send only USDC on linea to this address")
	a.Keys("c")
	if !strings.Contains(a.Notice(), "copied the USDC address") {
		t.Fatalf("notice %q", a.Notice())
	}
	a.Keys("esc")
	if _, open := a.UI().TopLayer(); open {
		t.Fatal("esc did not close the receive view")
	}
}

// An XRP wallet shows its destination tag and says it is needed.
func TestReceiveXRPShowsItsTag(t *testing.T) {
	a := newWalletApp(t, "frank@demo.test")
	a.Open(screenkit.WalletsScreen)
	wallets, _ := a.Client.InternalWallets(context.Background())
	row := -1
	for i, w := range wallets {
		if w.Currency == "xrp" {
			row = i
		}
	}
	if row < 0 || wallets[row].AddressMemo == nil {
		t.Fatalf("frank has no XRP wallet with a tag: %+v", wallets)
	}
	for range row {
		a.Keys("down")
	}
	a.Keys("R")
	if got := readScreenQR(t, a.UI().BodyView()); got != wallets[row].Address {
		t.Fatalf("the code reads %q, the address is %q", got, wallets[row].Address)
	}
	a.MustShow(t, "Receive XRP", "Network  xrpl", "Destination tag  "+*wallets[row].AddressMemo, "Include this destination tag")
	a.Keys("t")
	if !strings.Contains(a.Notice(), "copied the destination tag") {
		t.Fatalf("notice %q", a.Notice())
	}
}

// The receive view at 80x24 and 200x60 (reviewed goldens).
func TestReceiveGoldens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		a := newWalletApp(t, "frank@demo.test", screentest.WithNoColor(true), screentest.WithSize(size[0], size[1]))
		a.Open(screenkit.WalletsScreen)
		a.Keys("down", "down", "R")
		uitest.Golden(t, map[int]string{80: "80x24", 200: "200x60"}[size[0]], a.UI().BodyView())
	}
}
