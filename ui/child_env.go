package ui

import (
	"os"
	"slices"
	"strings"
)

// SecretEnvironment names every environment variable that carries one of
// cardterm's secrets. It is the one list: a new secret setting is added
// here, and no child process (the browser, any opener) ever sees it.
var SecretEnvironment = []string{
	"CARDTERM_SECRET_KEY",
	"CARDTERM_PASSWORD",
	"CARDTERM_WEBHOOK_KEY",
}

// ChildEnvironment is the environment a child process is started with:
// cardterm's own, less the variables in SecretEnvironment.
func ChildEnvironment() []string {
	return withoutSecrets(os.Environ())
}

// withoutSecrets drops the NAME=value entries whose name is a secret. Names
// are matched case-insensitively, as Windows reads them.
func withoutSecrets(env []string) []string {
	kept := make([]string, 0, len(env))
	for _, entry := range env {
		name, _, _ := strings.Cut(entry, "=")
		if slices.ContainsFunc(SecretEnvironment, func(secret string) bool { return strings.EqualFold(name, secret) }) {
			continue
		}
		kept = append(kept, entry)
	}
	return kept
}
