package transactions

import (
	"regexp"
	"strings"
	"testing"

	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
)

// signedMoney is an amount as the list draws it: signed, exact, with its
// currency.
var signedMoneyCell = regexp.MustCompile(`[-+]\d+\.\d\d (EUR|USD|GBP|CHF)`)

// The alternate shapes (money per currency, flat and signed, amountIn…
// Currency, in minor units, nested) drawn at 80x24 and 120x40: every row
// on screen shows its amount, and the detail its Amount line; the bodies
// are goldens (reviewed).
func TestAlternateShapesDrawnWithAmounts(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		a := screentest.New(t, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(New)),
			screentest.WithAltShapes(), screentest.WithSize(size[0], size[1]))
		a.SignInDirectly("alice@demo.test")
		a.Open(screenkit.TransactionsScreen)
		rows := 0
		for _, line := range strings.Split(a.Screen(), "\n") {
			if datePattern.MatchString(line) && !strings.Contains(line, " UTC") { // a row, not the detail's date
				rows++
				if !signedMoneyCell.MatchString(line) {
					t.Errorf("%dx%d: a row without its amount: %q", size[0], size[1], line)
				}
			}
		}
		if rows < 5 {
			t.Fatalf("%dx%d: %d rows drawn:\n%s", size[0], size[1], rows, a.Screen())
		}
		a.MustShow(t, "Amount  -53.63 EUR")
		a.MustNotShow(t, notGivenCell)
		a.Golden(strings.Join([]string{"alt-shapes", itoa(size[0]), itoa(size[1])}, "-"))
	}
}

var datePattern = regexp.MustCompile(`20\d\d-\d\d-\d\d \d\d:\d\d`)

func itoa(n int) string {
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}
