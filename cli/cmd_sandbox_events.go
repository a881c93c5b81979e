package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// eventTypeCompletions are the event types the sandbox emits that start
// with typed, each with what emits it, for shell completion of `sandbox
// trigger`.
func eventTypeCompletions(typed string) []cobra.Completion {
	var out []cobra.Completion
	for _, t := range sandbox.WebhookEventTypes {
		if strings.HasPrefix(t, typed) {
			out = append(out, cobra.CompletionWithDesc(t, sandbox.WebhookEventOrigin(t)))
		}
	}
	return out
}

// triggerRequest builds the trigger from the command line: the event type
// from the argument or the fixture's event_type, the fixture file's
// object, and the overrides in the order given. Mistakes are usage errors.
func triggerRequest(args []string, user, fixturePath string, overrides []string) (apiclient.SandboxTriggerRequest, error) {
	in := apiclient.SandboxTriggerRequest{User: user}
	if len(args) == 1 {
		in.EventType = args[0]
	}
	if fixturePath != "" {
		data, err := os.ReadFile(fixturePath)
		if err != nil {
			return in, usageError{fmt.Sprintf("--fixture: %v", err)}
		}
		var fields map[string]json.RawMessage
		d := json.NewDecoder(bytes.NewReader(data))
		if err := d.Decode(&fields); err != nil || fields == nil {
			return in, usageError{fmt.Sprintf("--fixture %s: not a JSON object (%v)", fixturePath, err)}
		}
		if raw, ok := fields["event_type"]; ok {
			var named string
			if err := json.Unmarshal(raw, &named); err != nil {
				return in, usageError{fmt.Sprintf("--fixture %s: event_type must be a string", fixturePath)}
			}
			if in.EventType != "" && named != in.EventType {
				return in, usageError{fmt.Sprintf("--fixture %s names event_type %s but the command names %s", fixturePath, named, in.EventType)}
			}
			in.EventType = named
		}
		in.Fixture = json.RawMessage(bytes.TrimSpace(data))
	}
	if in.EventType == "" {
		return in, usageError{"name the event type (e.g. cardterm sandbox trigger card.frozen), or give a --fixture with event_type"}
	}
	if err := apiclient.ValidateWebhookEventType(in.EventType); err != nil {
		return in, usageError{err.Error()}
	}
	for _, o := range overrides {
		parsed, err := apiclient.ParseSandboxOverride(o)
		if err != nil {
			return in, usageError{"--override " + err.Error()}
		}
		in.Overrides = append(in.Overrides, parsed)
	}
	return in, nil
}
