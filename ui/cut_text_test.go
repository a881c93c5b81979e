package ui_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"cardterm/theme"
	"cardterm/ui"
)

func TestCutText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"déjà", 4, "déjà"},
		{"déjà vu", 4, "déj…"},
		{"", 3, ""},
	} {
		if got := ui.CutText(tc.in, tc.n); got != tc.want {
			t.Fatalf("CutText(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// A notice is cut once, when it is raised, whatever its length.
func TestNotifyCutsLongText(t *testing.T) {
	msg := ui.Notify(theme.ToneDanger, strings.Repeat("é", 10<<20))().(ui.NoticeMsg)
	if n := utf8.RuneCountInString(msg.Notice.Text); n != ui.MaxMessageText || !strings.HasSuffix(msg.Notice.Text, "…") {
		t.Fatalf("notice of %d characters", n)
	}
}

// answerError carries a gateway's answer, as the API client's error does.
type answerError struct {
	text string
	body []byte
	cut  bool
}

func (e answerError) Error() string                 { return e.text }
func (e answerError) GatewayAnswer() ([]byte, bool) { return e.body, e.cut }

// An error carrying the gateway's answer keeps it on the notice; when the
// answer was cut, the notice is short and says i shows the answer.
func TestReportErrorKeepsTheAnswer(t *testing.T) {
	short := ui.ReportError("loading", answerError{text: "boom (500)", body: []byte(`{"message":"boom"}`)})().(ui.NoticeMsg)
	if short.Notice.Text != "loading: boom (500)" || string(short.Notice.Answer) != `{"message":"boom"}` {
		t.Fatalf("%+v", short.Notice)
	}
	long := ui.ReportError("loading", answerError{text: strings.Repeat("x", 300), body: []byte(`{"message":"xxx`), cut: true})().(ui.NoticeMsg)
	if !strings.HasSuffix(long.Notice.Text, "… · i shows the answer") || !long.Notice.AnswerCut || len(long.Notice.Text) > 150 {
		t.Fatalf("%q", long.Notice.Text)
	}
}
