package consent

import (
	"strings"
	"testing"

	"cardterm/screens/screentest"
)

// In read-only mode an unlinked set's detail names no key that links it.
func TestConsentDetailNamesNoLinkKeyInReadOnly(t *testing.T) {
	for _, readOnly := range []bool{false, true} {
		var opts []screentest.Option
		if readOnly {
			opts = append(opts, screentest.ReadOnly())
		}
		a := newConsentApp(t, "alice@demo.test", opts...)
		a.Keys("b")
		a.Type("onb-demo-001")
		a.Keys("enter", "enter")
		s := a.Screen()
		screentest.MustShow(t, s, "Consent set", "unlinked")
		if offered := strings.Contains(s, "L links it"); offered == readOnly {
			t.Fatalf("read-only %v: the detail offers L %v:\n%s", readOnly, offered, s)
		}
	}
}
