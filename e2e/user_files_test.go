package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/ui/uitest"
)

// configDir is the test's $XDG_CONFIG_HOME/cardterm, created.
func configDir(t *testing.T) string {
	t.Helper()
	for _, entry := range uitest.TestEnv(t) {
		if dir, ok := strings.CutPrefix(entry, "XDG_CONFIG_HOME="); ok {
			path := filepath.Join(dir, "cardterm")
			if err := os.MkdirAll(path, 0o700); err != nil {
				t.Fatal(err)
			}
			return path
		}
	}
	t.Fatal("the sealed environment has no XDG_CONFIG_HOME")
	return ""
}

// A keys file with two actions on one key, a commands file or a theme file
// that is malformed: the app refuses to start, naming the file and the line,
// with exit status 2; cardterm keys lists the keys in force and where they
// come from.
func TestTheUsersFilesAreCheckedAtStart(t *testing.T) {
	dir := configDir(t)
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	keys := write("keys.yaml", "card.freeze: F\ncard.order: F\n")
	_, errOut, code := sealedRun(t, nil)
	if code != 2 || !strings.Contains(errOut, keys+`:2: card.order: key "F" is card.freeze's already (line 1)`) {
		t.Fatalf("two actions on one key: %d %q", code, errOut)
	}
	write("keys.yaml", "card.freeze: F\n")
	out, _, code := sealedRun(t, nil, "keys")
	if code != 0 || !strings.Contains(out, "card.freeze") || !strings.Contains(out, keys+":1") {
		t.Fatalf("cardterm keys: %d\n%s", code, out)
	}
	commands := write("commands.yaml", "transactions:\n  - name: x\n    shell: 'echo {merchant}'\n")
	_, errOut, code = sealedRun(t, nil)
	if code != 2 || !strings.Contains(errOut, commands+":2: x: a shell script reads the fields as $CARDTERM_FIELD_NAME") {
		t.Fatalf("a field spliced into a shell: %d %q", code, errOut)
	}
	os.Remove(commands)
	theme := write("brand.yaml", "base: dark\naccent: \"#C2185B\"\ndanger: \"#GG0000\"\n")
	_, errOut, code = sealedRun(t, nil, "--theme", theme)
	if code != 2 || !strings.Contains(errOut, theme+`:3: danger: "#GG0000" is not a colour`) {
		t.Fatalf("a bad colour: %d %q", code, errOut)
	}
}
