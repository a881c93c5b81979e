package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/sandbox"
)

func TestTriggerRequestFromTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	named := write("named.json", `{"event_type":"order.status.changed","event_object":{"status":"FAILED"}}`)
	in, err := triggerRequest(nil, "nora@demo.test", named, []string{"event_object.status=EXPIRED", "event_object.n=3"})
	if err != nil || in.EventType != "order.status.changed" || in.User != "nora@demo.test" || len(in.Overrides) != 2 ||
		string(in.Overrides[1].Value) != "3" || !strings.Contains(string(in.Fixture), `"FAILED"`) {
		t.Fatalf("request %+v, %v", in, err)
	}
	for name, c := range map[string]struct {
		args      []string
		fixture   string
		overrides []string
		want      string
	}{
		"no type":       {want: "name the event type"},
		"bad type":      {args: []string{"Not A Type"}, want: "event type"},
		"disagreeing":   {args: []string{"card.frozen"}, fixture: named, want: "names event_type order.status.changed but the command names card.frozen"},
		"not an object": {args: []string{"card.frozen"}, fixture: write("list.json", `[1]`), want: "not a JSON object"},
		"missing file":  {args: []string{"card.frozen"}, fixture: filepath.Join(dir, "none.json"), want: "--fixture"},
		"bad override":  {args: []string{"card.frozen"}, overrides: []string{"no-equals"}, want: "--override"},
	} {
		_, err := triggerRequest(c.args, "", c.fixture, c.overrides)
		if _, usage := err.(usageError); !usage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a usage error saying %q", name, err, c.want)
		}
	}
}

func TestEveryEmittedEventTypeCompletesWithWhatEmitsIt(t *testing.T) {
	completions := eventTypeCompletions("")
	if len(completions) != len(sandbox.WebhookEventTypes) {
		t.Fatalf("%d completions for %d event types", len(completions), len(sandbox.WebhookEventTypes))
	}
	for _, c := range completions {
		if name, what, ok := strings.Cut(string(c), "\t"); !ok || what == "" || name == "" {
			t.Errorf("completion %q has no description", c)
		}
	}
}

func TestSandboxTriggerCompletesEventTypes(t *testing.T) {
	var out, errOut strings.Builder
	if code := Run([]string{"__complete", "sandbox", "trigger", "card."}, nil, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "card.frozen\ta card was frozen") || strings.Contains(out.String(), "kyc.status.changed") {
		t.Fatalf("completions of card.:\n%s", out.String())
	}
}
