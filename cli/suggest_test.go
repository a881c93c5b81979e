package cli

import (
	"strings"
	"testing"
)

// An unknown command or look-up offers the nearest one.
func TestUnknownCommandsAndLookUpsSayDidYouMean(t *testing.T) {
	useConfigDir(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"profil"}, `unknown command "profil" for "cardterm". Did you mean profile?`},
		{[]string{"sandbx"}, "Did you mean sandbox?"},
		{[]string{"profile", "lst"}, "Did you mean list?"},
		{[]string{"get", "cards"}, `no look-up "cards". Did you mean card?`},
		{[]string{"get", "webhoks"}, "Did you mean webhooks?"},
	} {
		var out, errOut strings.Builder
		if code := Run(c.args, nil, &out, &errOut); code != exitUsage || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut.String(), c.want)
		}
	}
	var out, errOut strings.Builder
	if Run([]string{"zzz"}, nil, &out, &errOut); strings.Contains(errOut.String(), "Did you mean") {
		t.Errorf("zzz is near nothing, yet: %q", errOut.String())
	}
}
