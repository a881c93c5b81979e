package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestListenChaosDuplicatesEveryForwardAtRateOne(t *testing.T) {
	t.Setenv(webhookKeyEnv, listenKey)
	got := make(chan string, 16)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev struct {
			EventID string `json:"event_id"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &ev)
		got <- ev.EventID
		w.WriteHeader(http.StatusOK)
	}))
	defer target.Close()
	rl := startListenInProcess(t, "--forward-to", target.URL, "--chaos", "duplicate", "--chaos-rate", "1", "--chaos-seed", "9")
	for i := 1; i <= 3; i++ {
		body := fmt.Sprintf(`{"event_type":"card.frozen","event_id":"evt_%d"}`, i)
		if status := deliver(t, rl.url, listenKey, nowTS(0), body); status != 200 {
			t.Fatalf("answered %d", status)
		}
	}
	var sequence []string
	for range 6 {
		select {
		case id := <-got:
			sequence = append(sequence, id)
		case <-time.After(10 * time.Second):
			t.Fatalf("the target got only %v", sequence)
		}
	}
	if want := []string{"evt_1", "evt_1", "evt_2", "evt_2", "evt_3", "evt_3"}; !slices.Equal(sequence, want) {
		t.Fatalf("the target got %v, want %v", sequence, want)
	}
	lines := rl.lines(t, 6)
	duplicates := 0
	for _, l := range lines {
		if l.Forward != nil && l.Forward.Chaos == "duplicate" {
			duplicates++
		}
	}
	if duplicates != 3 {
		t.Fatalf("%d forwards marked duplicate in %+v", duplicates, lines)
	}
	stderr := rl.stderr.String()
	if !strings.Contains(stderr, "Chaos: duplicate at a rate of 1, seed 9") || !strings.Contains(stderr, "chaos duplicate #3 card.frozen evt_3: sent twice") {
		t.Fatalf("stderr:\n%s", stderr)
	}
}

func TestListenChaosNeedsAForwardAndSaneFlags(t *testing.T) {
	t.Setenv(webhookKeyEnv, listenKey)
	for args, want := range map[string]string{
		"--chaos duplicate": "--chaos mutates forwards: give --forward-to URL too",
		"--forward-to http://127.0.0.1:9 --chaos shuffle":                  `--chaos "shuffle": the mutations are`,
		"--forward-to http://127.0.0.1:9 --chaos duplicate --chaos-rate 2": "--chaos-rate 2 must be from 0 to 1",
		"--chaos-seed 4": "--chaos-seed needs --chaos",
	} {
		cmd := newListenCommand()
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		cmd.SetArgs(strings.Fields(args))
		if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}
