package transactions

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/sandbox/gatewaytest"
	"cardterm/screens/screentest"
)

// x on a gateway that ignores ?page (answering the same page for ever,
// with ids or without) ends at the repeated page: no file is written, the
// partial one is removed, and a notice says why.
func TestExportStopsOnARepeatedPage(t *testing.T) {
	for _, withIDs := range []bool{true, false} {
		gw := &gatewaytest.RepeatingPages{WithIDs: withIDs}
		r := screentest.NewRig(t, "alice@demo.test", screentest.Of(New),
			screentest.WithGateway(func(next http.Handler) http.Handler { gw.Next = next; return gw }))
		path := filepath.Join(t.TempDir(), "all.csv")
		r.Keys("x", "ctrl+u")
		r.Type(path)
		r.Keys("enter")
		notices := r.Notices()
		if !strings.Contains(notices, "export stopped, nothing written") || !strings.Contains(notices, "answered page 2 with page 1 again") {
			t.Fatalf("ids %t: notices %q", withIDs, notices)
		}
		if gw.Served() > 3 {
			t.Errorf("ids %t: %d pages asked", withIDs, gw.Served())
		}
		for _, p := range []string{path, path + ".partial"} {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Errorf("ids %t: %s is there", withIDs, p)
			}
		}
	}
}
