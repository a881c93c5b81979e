package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
)

// secretKey finds the secret key: $CARDTERM_SECRET_KEY, else the entry in
// the OS keyring of the profile in use (not of a default profile whose
// settings the flags all replaced: that key is another tenant's), else (when ask is set and a terminal is
// attached) a masked prompt, whose answer is kept in the keyring for the
// profile. Empty means none: the app then cannot refresh sessions or
// change consents, and says so when asked.
func secretKey(o options, stdin *os.File, stderr io.Writer, ask bool) string {
	if v, ok := os.LookupEnv(secretKeyEnv); ok {
		return strings.TrimSpace(v)
	}
	keyringWorks := false
	if o.profileInUse && o.secrets != nil {
		v, err := o.secrets.get(o.profile)
		if v != "" {
			return v
		}
		keyringWorks = err == nil
	}
	if !ask || stdin == nil || !term.IsTerminal(stdin.Fd()) {
		return ""
	}
	fmt.Fprintf(stderr, "Secret key (x-secret-key; enter to skip, or set $%s): ", secretKeyEnv)
	b, err := term.ReadPassword(stdin.Fd())
	fmt.Fprintln(stderr)
	if err != nil {
		return ""
	}
	key := strings.TrimSpace(string(b))
	if key != "" && keyringWorks {
		if err := o.secrets.set(o.profile, key); err == nil {
			fmt.Fprintf(stderr, "cardterm: the secret key is kept in the OS keyring for profile %q.\n", o.profile)
		}
	}
	return key
}
