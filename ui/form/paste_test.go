package form_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
)

// pasteForm is a form of an amount (10 characters at most) and notes.
func pasteForm() *form.Form {
	st := theme.New(true, false)
	f := form.New(&st, form.Spec{Title: "Withdraw", Fields: []form.Field{
		{Key: "amount", Label: "Amount", CharLimit: 10},
		{Key: "notes", Label: "Notes", Kind: form.FieldMultiline, CharLimit: 40},
		{Key: "kind", Label: "Kind", Kind: form.FieldChoice, Choices: []string{"a", "b"}},
	}})
	f.SetWidth(70)
	f.Focus()
	return f
}

// paste pastes content into the field in focus and returns the notice it
// raised ("" for none).
func paste(t *testing.T, f *form.Form, content string) (theme.Tone, string) {
	t.Helper()
	_, cmd := f.Update(tea.PasteMsg{Content: content})
	if cmd == nil {
		return 0, ""
	}
	n, ok := cmd().(ui.NoticeMsg)
	if !ok {
		t.Fatalf("the paste answered %T", cmd())
	}
	return n.Notice.Tone, n.Notice.Text
}

// A paste with escapes and controls is cleaned and kept, and the notice
// says what was removed.
func TestPasteIsCleanedAndKept(t *testing.T) {
	f := pasteForm()
	tone, notice := paste(t, f, "\x1b[31m12.5\x1b[0m\x07\u202e\n")
	if got := f.Value("amount"); got != "12.5" {
		t.Fatalf("amount %q", got)
	}
	if tone != theme.ToneInfo || notice != "removed 2 escape sequences, 1 control character and 1 invisible or bidi character from the paste" {
		t.Fatalf("%v %q", tone, notice)
	}
	// A clean paste says nothing; its trailing line break is dropped.
	f.SetValue("amount", "")
	if _, notice := paste(t, f, "7.25\r\n"); notice != "" || f.Value("amount") != "7.25" {
		t.Fatalf("%q, amount %q", notice, f.Value("amount"))
	}
}

// A paste longer than the field's room is cut to it, with a warning that
// says so; into a full field nothing goes, with a word.
func TestOverLongPasteIsCutWithAMessage(t *testing.T) {
	f := pasteForm()
	tone, notice := paste(t, f, "123456789012345")
	if got := f.Value("amount"); got != "1234567890" {
		t.Fatalf("amount %q", got)
	}
	if tone != theme.ToneWarn || notice != "pasted the first 10 of 15 characters: Amount takes 10 at most" {
		t.Fatalf("%v %q", tone, notice)
	}
	if tone, notice := paste(t, f, "9"); tone != theme.ToneWarn || notice != "Amount is full (10 characters at most): nothing pasted" {
		t.Fatalf("%v %q", tone, notice)
	}
	// Room left takes what fits.
	f.SetValue("amount", "12345678")
	if _, notice := paste(t, f, "\x1b[1m999\x1b[0m"); f.Value("amount") != "1234567899" ||
		notice != "pasted the first 2 of 3 characters: Amount takes 10 at most; removed 2 escape sequences from the paste" {
		t.Fatalf("%q, amount %q", notice, f.Value("amount"))
	}
}

// A multi-line field keeps the paste's lines (\r\n read as \n); a choice
// takes no paste, and says so.
func TestPasteIntoMultilineAndChoice(t *testing.T) {
	f := pasteForm()
	pressForm(f, "tab")
	if _, notice := paste(t, f, "one\r\ntwo"); notice != "" || f.Value("notes") != "one\ntwo" {
		t.Fatalf("%q, notes %q", notice, f.Value("notes"))
	}
	pressForm(f, "tab")
	if _, notice := paste(t, f, "b"); notice != "Kind is chosen, not typed: nothing pasted" {
		t.Fatalf("%q", notice)
	}
}

// A bidi override or a zero-width character in a field is shown as a
// visible mark, never drawn raw; the value keeps what was typed.
func TestInputShowsBidiAsMarks(t *testing.T) {
	f := pasteForm()
	f.SetValue("amount", "12\u202e34\u200b")
	view := f.View()
	if strings.ContainsAny(view, "\u202e\u200b") || !strings.Contains(view, "12<U+202E>34<U+200B>") {
		t.Fatalf("view %q", view)
	}
	if f.Value("amount") != "12\u202e34\u200b" {
		t.Fatalf("value %q", f.Value("amount"))
	}
	pressForm(f, "tab")
	f.SetValue("notes", "a\u2066b")
	if view := f.View(); strings.Contains(view, "\u2066") || !strings.Contains(view, "a<U+2066>b") {
		t.Fatalf("view %q", view)
	}
}
