package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
)

// runVerifyCommand runs `webhook verify` with args, stdin and the key in
// the environment, and returns stdout, stderr and the error.
func runVerifyCommand(t *testing.T, key, stdin string, args ...string) (string, string, error) {
	t.Helper()
	t.Setenv(webhookKeyEnv, key)
	cmd := newWebhookCommand()
	var stdout, stderr bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetArgs(append([]string{"verify"}, args...))
	err := cmd.Execute()
	return stdout.String(), stderr.String(), err
}

func TestWebhookVerifySaysExactlyWhy(t *testing.T) {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := apiclient.SignWebhook(listenKey, ts, []byte(frozenBody))
	old := strconv.FormatInt(time.Now().Add(-time.Hour).Unix(), 10)
	oldSig := apiclient.SignWebhook(listenKey, old, []byte(frozenBody))
	for _, tc := range []struct {
		name, key, body string
		args            []string
		ok              bool
		says            []string
	}{
		{"valid", listenKey, frozenBody, []string{"--timestamp", ts, "--signature", sig}, true,
			[]string{"verified: the signature matches the body under this key, signed ", " ago (within 5 min)"}},
		{"wrong key", "whsec_some_other_webhooks_key", frozenBody, []string{"--timestamp", ts, "--signature", sig}, false,
			[]string{"not verified: wrong key or body changed", "current one (a rotation replaces it)"}},
		{"body changed", listenKey, strings.Replace(frozenBody, "u-1", "u-2", 1), []string{"--timestamp", ts, "--signature", sig}, false,
			[]string{"not verified: wrong key or body changed: the signature does not match the body under this key"}},
		{"trailing newline", listenKey, frozenBody + "\n", []string{"--timestamp", ts, "--signature", sig}, false,
			[]string{"wrong key or body changed", "ends with a line break the signed body does not have"}},
		{"old timestamp", listenKey, frozenBody, []string{"--timestamp", old, "--signature", oldSig}, false,
			[]string{"not verified: timestamp outside the window: signed 1 h ago, more than the 5 min allowed", "--tolerance"}},
		{"old capture with a wider window", listenKey, frozenBody, []string{"--timestamp", old, "--signature", oldSig, "--tolerance", "2h"}, true,
			[]string{"verified", "signed 1 h ago (within 2 h)"}},
		{"timestamp not unix seconds", listenKey, frozenBody, []string{"--timestamp", "Tue, 01 Mar 2026 12:00:00 GMT", "--signature", sig}, false,
			[]string{"not verified: malformed header: X-Timestamp \"Tue, 01 Mar 2026 12:00:00 GMT\" is not unix seconds"}},
		{"signature not hex", listenKey, frozenBody, []string{"--timestamp", ts, "--signature", "sha256=" + sig}, false,
			[]string{"not verified: malformed header: X-Signature is not 64 hex digits (HMAC-SHA256)"}},
		{"masked key", "whsec_********abcd", frozenBody, []string{"--timestamp", ts, "--signature", sig}, false,
			[]string{"no usable signing key (a masked key cannot verify)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, err := runVerifyCommand(t, tc.key, tc.body, tc.args...)
			if (err == nil) != tc.ok {
				t.Fatalf("error %v; stdout %q stderr %q", err, stdout, stderr)
			}
			if !tc.ok && !errors.Is(err, errNotVerified) {
				t.Fatalf("error %v is not errNotVerified", err)
			}
			out := stdout + stderr
			for _, s := range tc.says {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			if n := strings.Count(stderr, "not verified"); !tc.ok && n != 1 {
				t.Errorf("the verdict is printed %d times:\n%s", n, stderr)
			}
			if tc.ok && stderr != "" || !tc.ok && stdout != "" {
				t.Errorf("verdict on the wrong stream: stdout %q stderr %q", stdout, stderr)
			}
		})
	}
}

func TestWebhookVerifyReadsTheBodyFromAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "delivery.json")
	if err := os.WriteFile(file, []byte(frozenBody), 0o600); err != nil {
		t.Fatal(err)
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := apiclient.SignWebhook(listenKey, ts, []byte(frozenBody))
	// stdin holds something else: --body wins.
	if _, stderr, err := runVerifyCommand(t, listenKey, "not the body", "--timestamp", ts, "--signature", sig, "--body", file); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	if _, stderr, err := runVerifyCommand(t, listenKey, "", "--timestamp", ts, "--signature", sig, "--body", file+".missing"); err == nil ||
		!strings.Contains(stderr, "no such file") {
		t.Fatalf("missing file: %v %q", err, stderr)
	}
}

func TestWebhookVerifyNeedsItsFlagsAndAKey(t *testing.T) {
	if _, stderr, err := runVerifyCommand(t, listenKey, frozenBody, "--timestamp", "1"); err == nil || !strings.Contains(stderr, `required flag(s) "signature" not set`) {
		t.Fatalf("missing --signature: %v %q", err, stderr)
	}
	old := promptSecret
	t.Cleanup(func() { promptSecret = old })
	promptSecret = func(*cobra.Command, string) (string, error) { return "", errors.New("no terminal to ask on") }
	_, stderr, err := runVerifyCommand(t, "", frozenBody, "--timestamp", "1", "--signature", strings.Repeat("0", 64))
	if err == nil || !strings.Contains(stderr, webhookKeyEnv) {
		t.Fatalf("no key: %v %q", err, stderr)
	}
	// The prompt is used when the variable is unset, and its answer is the key.
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	promptSecret = func(*cobra.Command, string) (string, error) { return listenKey, nil }
	if _, stderr, err := runVerifyCommand(t, "", frozenBody, "--timestamp", ts, "--signature", apiclient.SignWebhook(listenKey, ts, []byte(frozenBody))); err != nil {
		t.Fatalf("prompted key: %v %s", err, stderr)
	}
	_ = io.Discard
}
