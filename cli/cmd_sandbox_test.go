package cli

import (
	"strings"
	"testing"
)

func TestSandboxPublicURLMustBeAnHTTPURL(t *testing.T) {
	var out, errOut strings.Builder
	if code := Run([]string{"sandbox", "--public-url", "ftp://demo.example"}, nil, &out, &errOut); code != exitUsage || !strings.Contains(errOut.String(), "--public-url") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
}
