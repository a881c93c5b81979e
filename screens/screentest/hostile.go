package screentest

import (
	"fmt"
	"net/http/httptest"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/sandbox/hostile"
)

// WithHostileGateway puts hostile.Proxy in front of the sandbox: every
// string and map key of every JSON answer carries escape sequences
// (hostile.Payload). With keepParseable, numbers and dates are left alone
// so that answers still parse and their text reaches further in.
func WithHostileGateway(keepParseable bool) Option {
	return func(s *Setup) {
		s.Proxy = func(t testing.TB, sandboxURL string) string {
			proxy, err := hostile.Proxy(sandboxURL, keepParseable)
			if err != nil {
				t.Fatal(err)
			}
			server := httptest.NewServer(proxy)
			t.Cleanup(server.Close)
			return server.URL
		}
	}
}

// rawRecorder keeps what the app writes to the terminal past its frame
// (tea.RawMsg, which the program writes as it is) for the test to read.
type rawRecorder struct {
	tea.Model
	raw *[]string
}

func (r rawRecorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(tea.RawMsg); ok {
		*r.raw = append(*r.raw, fmt.Sprint(m.Msg))
	}
	var cmd tea.Cmd
	r.Model, cmd = r.Model.Update(msg)
	return r, cmd
}
