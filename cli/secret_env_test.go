package cli

import (
	"slices"
	"testing"

	"cardterm/ui"
)

// Every environment variable cardterm reads a secret from is in the one
// list of what a child process never gets.
func TestEverySecretSettingIsKeptFromChildren(t *testing.T) {
	for _, name := range []string{secretKeyEnv, webhookKeyEnv, "CARDTERM_PASSWORD"} {
		if !slices.Contains(ui.SecretEnvironment, name) {
			t.Errorf("%s is missing from ui.SecretEnvironment", name)
		}
	}
}
