package events

import (
	"net/http"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/sandbox/webhookreceiver"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// runWithin runs cmd and returns its message, failing after a while.
func runWithin(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	got := make(chan tea.Msg, 1)
	go func() { got <- cmd() }()
	select {
	case msg := <-got:
		return msg
	case <-time.After(5 * time.Second):
		t.Fatal("the wait command brought nothing")
		return nil
	}
}

// The live path alone: the wait command brings a delivery posted to the
// listener, Update lists it and hands back the next wait, and only one
// wait is out at a time.
func TestWaitBringsEachDeliveryAndWaitsAgain(t *testing.T) {
	styles := theme.New(true, true)
	receiver, err := webhookreceiver.New(webhookreceiver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	listener, err := webhookreceiver.Start("127.0.0.1:0", receiver)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = listener.Close() })
	s := New(screenkit.Deps{Requests: ui.NewRequests(), Styles: &styles, Events: receiver, EventsURL: listener.URL})
	s.SetSize(100, 30)
	wait := s.feed.wait()
	if wait == nil || s.feed.wait() != nil {
		t.Fatal("want exactly one wait out")
	}
	post := func(eventType string) {
		resp, err := http.Post(listener.URL, "application/json", strings.NewReader(`{"event_type":"`+eventType+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	post("card.frozen")
	_, next := s.Update(runWithin(t, wait))
	if next == nil {
		t.Fatal("no next wait after a delivery")
	}
	post("card.unfrozen")
	_, next = s.Update(runWithin(t, next))
	view := s.View()
	for _, want := range []string{"2 deliveries (2 rejected)", "card.unfrozen", "no signing key yet"} {
		if !strings.Contains(view, want) {
			t.Fatalf("view lacks %q:\n%s", want, view)
		}
	}
	if strings.Index(view, "card.unfrozen") > strings.Index(view, "card.frozen ") {
		t.Fatalf("newest not on top:\n%s", view)
	}
	// The listener closing ends the wait and the heading says so.
	receiver.Close()
	s.Update(runWithin(t, next))
	if !strings.Contains(s.View(), "listener stopped") {
		t.Fatalf("a stopped listener is not shown:\n%s", s.View())
	}
}

// The list keeps at most maxShown deliveries and maxShownBytes of bodies,
// newest first, the newest always.
func TestListIsBoundedInCountAndBytes(t *testing.T) {
	big := make([]byte, 10<<20)
	var list []webhookreceiver.Delivery
	for i := range 5 {
		list = append(list, webhookreceiver.Delivery{Seq: int64(5 - i), Body: big})
	}
	if n := keptCount(list); n != 3 || list[3].Body != nil {
		t.Fatalf("kept %d of five 10 MiB bodies (budget %d MiB)", n, maxShownBytes>>20)
	}
	small := make([]webhookreceiver.Delivery, maxShown+10)
	if n := keptCount(small); n != maxShown {
		t.Fatalf("kept %d bodiless deliveries", n)
	}
	if n := keptCount([]webhookreceiver.Delivery{{Body: make([]byte, maxShownBytes+1)}}); n != 1 {
		t.Fatalf("the newest, alone over the budget, was dropped")
	}
}
