package ui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
)

func TestSentRequestOfAConfirmation(t *testing.T) {
	for _, tc := range []struct {
		spec ConfirmSpec
		want SentRequest
		ok   bool
	}{
		{ConfirmSpec{Request: []string{"POST /v1/card/freeze"}}, SentRequest{Method: "POST", Path: "/v1/card/freeze"}, true},
		{ConfirmSpec{Request: []string{"POST /v1/wallet/credit/withdraw", `{"amount":"20"}`}},
			SentRequest{Method: "POST", Path: "/v1/wallet/credit/withdraw", Body: []byte(`{"amount":"20"}`)}, true},
		{ConfirmSpec{Request: []string{"POST /v1/wallet/whitelist", `{"wallets":[ 3 usdc entries ]}`}}, SentRequest{}, false},
		{ConfirmSpec{Request: []string{"POST /v1/wallet/whitelist", "summary"}, Send: &SentRequest{Method: "POST", Path: "/x", Body: []byte("{}")}},
			SentRequest{Method: "POST", Path: "/x", Body: []byte("{}")}, true},
		{ConfirmSpec{Request: []string{"headers: x-secret-key"}}, SentRequest{}, false},
	} {
		got, ok := sentRequestOf(tc.spec)
		if ok != tc.ok || got.Method != tc.want.Method || got.Path != tc.want.Path || string(got.Body) != string(tc.want.Body) {
			t.Errorf("%v: %+v %v, want %+v %v", tc.spec.Request, got, ok, tc.want, tc.ok)
		}
	}
}

func TestDialogCopiesItsRequestAsCurlAndShowsIt(t *testing.T) {
	var asked []SentRequest
	var revealed []bool
	curlOf := func(req SentRequest, reveal bool) (string, []string, error) {
		asked, revealed = append(asked, req), append(revealed, reveal)
		if req.Path == "/fail" {
			return "", nil, errors.New("no client")
		}
		return "curl --request POST \\\n  'http://gw/v1/card/freeze'", []string{"CARDTERM_ACCESS_TOKEN"}, nil
	}
	d := &dialog{spec: ConfirmSpec{Title: "Freeze?", Request: []string{"POST /v1/card/freeze"}}, keys: DialogKeys(), curlOf: curlOf}
	done, cmd := d.update(tea.KeyPressMsg{Code: 'c', Text: "c"})
	if done || cmd == nil || len(asked) != 1 || asked[0].Path != "/v1/card/freeze" || revealed[0] {
		t.Fatalf("c: done %v, asked %+v", done, asked)
	}
	st := theme.New(true, false)
	view := ansi.Strip(d.view(&st, 80, 40))
	if !strings.Contains(view, "Copied as curl:") || !strings.Contains(view, "'http://gw/v1/card/freeze'") {
		t.Fatalf("the dialog does not show the command:\n%s", view)
	}
	if _, _ = d.update(tea.KeyPressMsg{Code: 'C', Text: "C"}); !revealed[1] {
		t.Fatal("C did not ask for the secrets")
	}
}

// A confirmation that only describes what it runs (a summary of a body,
// a local command) does not offer c: the footer and help list only what
// works, and c copies nothing.
func TestDialogOffersCurlOnlyForAWholeRequest(t *testing.T) {
	copied := 0
	curlOf := func(SentRequest, bool) (string, []string, error) { copied++; return "curl", nil, nil }
	for _, tc := range []struct {
		name    string
		request []string
		offered bool
	}{
		{"a whole request", []string{"POST /v1/card/freeze"}, true},
		{"a summary of the body", []string{"POST /v1/wallet/whitelist", "3 entries"}, false},
		{"a local command", []string{"$ printf '%s' 'Joe'\\''s'"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			copied = 0
			d := newDialog(ConfirmSpec{Request: tc.request}, curlOf, nil)
			if got := d.keys.Copy.Enabled() && d.keys.CopyRevealed.Enabled(); got != tc.offered {
				t.Fatalf("c and C offered: %v, want %v", got, tc.offered)
			}
			d.update(tea.KeyPressMsg{Code: 'c', Text: "c"})
			if tc.offered != (copied == 1) || !tc.offered && d.curl != "" {
				t.Fatalf("c copied %d times (curl %q), offered %v", copied, d.curl, tc.offered)
			}
		})
	}
}

// A command of several lines is shown a line each, never with its breaks
// escaped.
func TestDialogShowsTheCommandLineByLine(t *testing.T) {
	curlOf := func(SentRequest, bool) (string, []string, error) {
		return "curl --silent \\\n  --request POST \\\n  'http://gw/v1/card/freeze'", nil, nil
	}
	d := &dialog{spec: ConfirmSpec{Request: []string{"POST /v1/card/freeze"}}, keys: DialogKeys(), curlOf: curlOf}
	d.update(tea.KeyPressMsg{Code: 'c', Text: "c"})
	st := theme.New(true, false)
	view := ansi.Strip(d.view(&st, 80, 40))
	if strings.Contains(view, `\n`) || !strings.Contains(view, "--request POST \\") {
		t.Fatalf("the command's lines:\n%s", view)
	}
}

func TestInspectorCopiesTheRecordsRequestAsCurl(t *testing.T) {
	in := newInspector("card", []byte(`{"status":"ACTIVE"}`))
	if _, cmd := in.update(tea.KeyPressMsg{Code: 'c', Text: "c"}, 20); cmd == nil || in.lines[0] != "{" {
		t.Fatalf("without a request: %v %q", cmd, in.lines)
	}
	var asked SentRequest
	in.request = &SentRequest{Method: "GET", Path: "/v1/card/status"}
	in.curlOf = func(req SentRequest, _ bool) (string, []string, error) {
		asked = req
		return "curl \\\n  'http://gw/v1/card/status'", []string{"CARDTERM_ACCESS_TOKEN"}, nil
	}
	in.update(tea.KeyPressMsg{Code: 'c', Text: "c"}, 20)
	if asked.Path != "/v1/card/status" || in.lines[0] != "curl \\" || in.lines[1] != "  'http://gw/v1/card/status'" || in.lines[3] != "{" {
		t.Fatalf("asked %+v, shown %q", asked, in.lines)
	}
	in.update(tea.KeyPressMsg{Code: 'c', Text: "c"}, 20) // again: shown once
	if len(in.lines) != 3+len(in.json) {
		t.Fatalf("shown twice: %q", in.lines)
	}
}
