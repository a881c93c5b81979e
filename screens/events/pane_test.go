package events

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/sandbox/webhookreceiver"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// delivered is a verified delivery whose body names its own sequence.
func delivered(seq int) webhookreceiver.Delivery {
	body := fmt.Sprintf(`{"event_type":"card.frozen","event_object":{"marker":"body of %d"}}`, seq)
	return webhookreceiver.Delivery{Seq: int64(seq), ReceivedAt: time.Unix(1795338000, 0), EventType: "card.frozen",
		EventID: fmt.Sprint("event-", seq), Verified: true, Body: []byte(body), Header: http.Header{}, Status: http.StatusOK}
}

// eventsScreen is the Events screen at 120x40 on a receiver of its own,
// with no listener behind its URL.
func eventsScreen(t testing.TB) *Screen {
	t.Helper()
	styles := theme.New(true, false)
	receiver, err := webhookreceiver.New(webhookreceiver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(receiver.Close)
	s := New(screenkit.Deps{Requests: ui.NewRequests(), Styles: &styles, Events: receiver, EventsURL: "http://127.0.0.1:1/"})
	s.SetSize(120, 40)
	return s
}

func plain(s *Screen) string { return uitest.Plain(tea.NewView(s.View())) }

// The pane shows the selected delivery's own body, when it is first
// selected and when the cursor comes back to it (its fields are kept).
func TestPaneShowsTheSelectedBodyGoingAndComingBack(t *testing.T) {
	s := eventsScreen(t)
	s.Update(historyMsg{feed: s.feed, deliveries: []webhookreceiver.Delivery{delivered(1), delivered(2), delivered(3)}})
	for _, step := range []struct {
		key, want string
	}{{"", "body of 3"}, {"down", "body of 2"}, {"down", "body of 1"}, {"up", "body of 2"}, {"up", "body of 3"}} {
		if step.key != "" {
			s.Update(uitest.Key(step.key))
		}
		v := plain(s)
		if !strings.Contains(v, step.want) || strings.Count(v, "body of") != 1 {
			t.Fatalf("after %q the pane should show only %q:\n%s", step.key, step.want, v)
		}
	}
}

// The heading counts the deliveries as they arrive, without a resize.
func TestHeadingCountsArrivals(t *testing.T) {
	s := eventsScreen(t)
	s.Update(historyMsg{feed: s.feed, deliveries: []webhookreceiver.Delivery{delivered(1)}})
	if v := plain(s); !strings.Contains(v, "1 delivery") {
		t.Fatalf("heading after one delivery:\n%s", v)
	}
	s.Update(deliveryMsg{feed: s.feed, delivery: delivered(2)})
	if v := plain(s); !strings.Contains(v, "2 deliveries") {
		t.Fatalf("heading after a second delivery:\n%s", v)
	}
}

// Kept bodies stay within their budget: past it the fields kept so far
// are forgotten (and read again when needed).
func TestKeptBodiesStayWithinTheBudget(t *testing.T) {
	var kept bodyFields
	big := delivered(1)
	big.Body = []byte(`{"pad":"` + strings.Repeat("x", bodyFieldsBudget/2) + `"}`)
	for seq := range 5 {
		big.Seq = int64(seq)
		if fields := kept.of(big); len(fields) != 1 || fields[0].Label != "Pad" {
			t.Fatalf("fields of a big body: %d", len(fields))
		}
		if kept.bytes > bodyFieldsBudget {
			t.Fatalf("%d bytes of bodies kept, the budget is %d", kept.bytes, bodyFieldsBudget)
		}
	}
}
