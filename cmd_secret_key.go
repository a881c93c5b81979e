package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
)

// secretKey reads the secret key from the environment, or asks for it with
// a masked prompt when a terminal is attached. Empty means none: the app
// then cannot refresh sessions or change consents, and says so when asked.
func secretKey(stdin *os.File, stderr io.Writer) string {
	if v, ok := os.LookupEnv(secretKeyEnv); ok {
		return strings.TrimSpace(v)
	}
	if stdin == nil || !term.IsTerminal(stdin.Fd()) {
		return ""
	}
	fmt.Fprintf(stderr, "Secret key (x-secret-key; enter to skip, or set $%s): ", secretKeyEnv)
	b, err := term.ReadPassword(stdin.Fd())
	fmt.Fprintln(stderr)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
