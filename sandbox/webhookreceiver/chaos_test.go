package webhookreceiver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// chaosRun sends n signed deliveries (event ids e1..en), one after the
// other, through a receiver forwarding with chaos to a target, and returns
// the event ids in the order the target got them and the mutations logged.
func chaosRun(t *testing.T, chaos Chaos, n int) (got []string, mutations []string) {
	t.Helper()
	var mu sync.Mutex
	forwards := make(chan struct{}, 1024)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev struct {
			EventID string `json:"event_id"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &ev)
		mu.Lock()
		got = append(got, ev.EventID)
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	defer target.Close()
	chaos.OnMutation = func(m Mutation) {
		mu.Lock()
		mutations = append(mutations, fmt.Sprintf("%s #%d %s", m.Kind, m.Seq, m.EventID))
		mu.Unlock()
	}
	rcv, err := New(Options{Key: testKey, ForwardTo: target.URL, Chaos: &chaos, Now: func() time.Time { return t0 },
		OnForward: func(Delivery) { forwards <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	for i := 1; i <= n; i++ {
		body := fmt.Sprintf(`{"event_type":"card.frozen","event_id":"e%d"}`, i)
		resp := postWith(t, srv.URL, body, signed(testKey, t0, body))
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("delivery %d answered %d", i, resp.StatusCode)
		}
	}
	// Every event reaching the target once means every delivery was
	// through the dice; then wait for every forward the mutations planned:
	// the plain ones and a second for each duplicate and replay.
	received := 0
	arrivedAll := func() bool {
		mu.Lock()
		defer mu.Unlock()
		for i := 1; i <= n; i++ {
			if !slices.Contains(got, fmt.Sprintf("e%d", i)) {
				return false
			}
		}
		return true
	}
	wait := func() {
		select {
		case <-forwards:
			received++
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d forwards arrived: %v", received, got)
		}
	}
	for !arrivedAll() {
		wait()
	}
	mu.Lock()
	expected := n
	for _, m := range mutations {
		if strings.HasPrefix(m, "duplicate") || strings.HasPrefix(m, "replay") {
			expected++
		}
	}
	mu.Unlock()
	for received < expected {
		wait()
	}
	rcv.Close()
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(got), slices.Clone(mutations)
}

func TestChaosDuplicateAtRateOneForwardsEveryEventTwice(t *testing.T) {
	got, mutations := chaosRun(t, Chaos{Duplicate: true, Rate: 1, Seed: 7}, 5)
	want := []string{"e1", "e1", "e2", "e2", "e3", "e3", "e4", "e4", "e5", "e5"}
	if !slices.Equal(got, want) {
		t.Fatalf("target got %v, want %v", got, want)
	}
	if len(mutations) != 5 || mutations[0] != "duplicate #1 e1" {
		t.Fatalf("mutations %v", mutations)
	}
}

func TestChaosWithASeedRepeatsItsSequence(t *testing.T) {
	defer func(old time.Duration) { chaosHoldLimit = old }(chaosHoldLimit)
	chaosHoldLimit = 50 * time.Millisecond
	chaos := Chaos{Duplicate: true, Reorder: true, Replay: true, Delay: time.Millisecond, Rate: 0.4, Seed: 42}
	first, firstMutations := chaosRun(t, chaos, 12)
	second, secondMutations := chaosRun(t, chaos, 12)
	if !slices.Equal(first, second) || !slices.Equal(firstMutations, secondMutations) {
		t.Fatalf("the same seed gave\n%v (%v)\nthen\n%v (%v)", first, firstMutations, second, secondMutations)
	}
	plain := make([]string, 12)
	for i := range plain {
		plain[i] = fmt.Sprintf("e%d", i+1)
	}
	if slices.Equal(first, plain) || len(firstMutations) == 0 {
		t.Fatalf("rate 0.4 changed nothing: %v", first)
	}
	other, _ := chaosRun(t, Chaos{Duplicate: true, Reorder: true, Replay: true, Delay: time.Millisecond, Rate: 0.4, Seed: 43}, 12)
	if slices.Equal(first, other) {
		t.Fatalf("seeds 42 and 43 gave the same sequence %v", first)
	}
}

func TestParseChaos(t *testing.T) {
	c, err := ParseChaos("duplicate, reorder,delay=2s,replay")
	if err != nil || !c.Duplicate || !c.Reorder || !c.Replay || c.Delay != 2*time.Second || c.String() != "duplicate,reorder,delay=2s,replay" {
		t.Fatalf("%+v %v", c, err)
	}
	for _, bad := range []string{"", "dup", "delay", "delay=-1s", "delay=x", "duplicate=1"} {
		if _, err := ParseChaos(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}
