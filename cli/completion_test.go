package cli

import (
	"strings"
	"testing"
)

// complete runs the shell's completion request for line (its last word
// being completed) and returns the candidates and the directive line.
func complete(t *testing.T, line ...string) (candidates []string, directive string) {
	t.Helper()
	var out, errOut strings.Builder
	if code := Run(append([]string{"__complete"}, line...), nil, &out, &errOut); code != exitOK {
		t.Fatalf("__complete %v: exit %d %s", line, code, errOut.String())
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if strings.HasPrefix(l, ":") {
			directive = l
			continue
		}
		name, _, _ := strings.Cut(l, "\t")
		candidates = append(candidates, name)
	}
	return candidates, directive
}

const (
	noFiles = ":4"  // cobra.ShellCompDirectiveNoFileComp
	files   = ":0"  // cobra.ShellCompDirectiveDefault: the shell's file names
	dirs    = ":16" // cobra.ShellCompDirectiveFilterDirs
)

func TestCompletionOfFlagValues(t *testing.T) {
	for _, c := range []struct {
		line      []string
		want      []string
		directive string
	}{
		{[]string{"--environment", ""}, []string{"production", "staging", "sandbox"}, noFiles},
		{[]string{"get", "user", "--environment", ""}, []string{"production", "staging", "sandbox"}, noFiles},
		{[]string{"profile", "add", "x", "--start", ""}, []string{"sign-in", "support"}, noFiles},
		{[]string{"--json", ""}, []string{"audit", "user", "wallets"}, noFiles},
		{[]string{"get", "user", "--json", ""}, nil, noFiles},
		{[]string{"version", "--json", ""}, nil, noFiles},
		{[]string{"profile", "list", "--json", ""}, nil, noFiles},
		{[]string{"--timeout", ""}, nil, noFiles},
		{[]string{"get", "--base-url", ""}, nil, noFiles},
		{[]string{"api", "-X", ""}, []string{"GET", "POST", "DELETE"}, noFiles},
		{[]string{"api", ""}, nil, noFiles},
		{[]string{"api", "/v1/user", "--jq", ""}, nil, noFiles},
		{[]string{"api", "/v1/user", "-H", ""}, nil, noFiles},
		{[]string{"sandbox", "--addr", ""}, nil, noFiles},
		{[]string{"listen", "--forward-to", ""}, nil, noFiles},
		{[]string{"webhook", "verify", "--signature", ""}, nil, noFiles},
		// Values that are files keep the shell's file names.
		{[]string{"get", "--debug", ""}, nil, files},
		{[]string{"webhook", "verify", "--body", ""}, nil, files},
		{[]string{"api", "-X", "POST", "/v1/order", "--input", ""}, nil, files},
		{[]string{"sandbox", "export", ""}, nil, files},
		{[]string{"sandbox", "import", ""}, nil, files},
		{[]string{"sandbox", "--data", ""}, nil, dirs},
		{[]string{"sandbox", "logs", ""}, nil, noFiles},
		{[]string{"sandbox", "clock", ""}, []string{"+7h", "+185d", "set", "reset"}, noFiles},
		{[]string{"wait", ""}, []string{"order", "card", "verification", "delivery"}, noFiles},
		{[]string{"wait", "order", "x", "--status", ""}, []string{"COMPLETED", "EXPIRED"}, noFiles},
		{[]string{"wait", "delivery", "x", "--status", ""}, []string{"delivered", "failed"}, noFiles},
		{[]string{"sandbox", "events", "--type", ""}, []string{"card.frozen", "transaction.reversed"}, noFiles},
		{[]string{"proxy", "--to", ""}, nil, noFiles},
		{[]string{"certify", "--out", ""}, []string{"md"}, ":8"}, // cobra.ShellCompDirectiveFilterFileExt
	} {
		got, directive := complete(t, c.line...)
		if directive != c.directive {
			t.Errorf("%v: directive %s, want %s (%v)", c.line, directive, c.directive, got)
		}
		for _, want := range c.want {
			if !strings.Contains(" "+strings.Join(got, " ")+" ", " "+want+" ") {
				t.Errorf("%v: %v lacks %s", c.line, got, want)
			}
		}
	}
}
