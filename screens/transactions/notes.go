package transactions

import (
	"context"
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/notes"
	"cardterm/domain/statement"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// Notes and tags: t writes a note and tags on the selected transaction
// (kept in the profile's folder, per user, by the transaction's id); #
// lists the transactions of one tag from every page; the detail pane and
// the statements (x) carry them. The note form and the tag choice are
// layers (screenkit.FormLayer).

// Messages of the notes.
type (
	// notesLoadedMsg is the user's notes read at sign-in.
	notesLoadedMsg struct {
		book *notes.Book
		err  error
	}
	// noteSavedMsg says a note was kept.
	noteSavedMsg struct{}
	// tagChosenMsg is the tag to list ("" lists the pages again).
	tagChosenMsg struct{ tag string }
)

// loadNotes reads the signed-in user's notes in a command.
func (t *Screen) loadNotes() tea.Cmd {
	dir := t.Deps.HolderDir
	if dir == "" || t.Deps.Client == nil {
		return nil
	}
	user := t.Deps.Client.Session().Username
	return func() tea.Msg {
		book, err := notes.Load(notes.File(dir, user))
		return notesLoadedMsg{book: book, err: err}
	}
}

// notesUpdate takes the notes' messages; ok is false for any other.
func (t *Screen) notesUpdate(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case notesLoadedMsg:
		t.notes = msg.book
		t.staleFrame()
		if msg.err != nil {
			return ui.NotifyEverywhere(theme.ToneWarn, "notes not read (nothing is written over them): "+msg.err.Error()), true
		}
		return nil, true
	case noteSavedMsg:
		t.staleFrame()
		return nil, true
	case tagChosenMsg:
		t.tag = msg.tag
		t.table.ClearFilter()
		return t.load(apiclient.TransactionFilter{}), true
	}
	return nil, false
}

// openNote opens the note form on the selected transaction.
func (t *Screen) openNote() tea.Cmd {
	x, ok := t.selected()
	switch {
	case !ok:
		return ui.Notify(theme.ToneInfo, "no transaction selected")
	case t.notes == nil:
		return ui.Notify(theme.ToneWarn, "notes need a profile folder and a signed-in user")
	case x.ID == "":
		return ui.Notify(theme.ToneWarn, "this transaction has no id to keep a note by")
	}
	id, book := x.ID, t.notes
	note := book.Get(id)
	f := form.New(t.Deps.Styles, form.Spec{
		Title:  "Note on " + sanitize.Text(strings.TrimSpace(x.MerchantNameLocation+" "+signedAmount(x))),
		Lines:  []string{"Kept on this machine with the profile, by the transaction's id; statements carry it."},
		Submit: "save",
		Note:   "an empty note and no tags remove it",
		Fields: []form.Field{
			{Key: "note", Label: "Note", Value: note.Text, Placeholder: "team lunch, refund asked…", CharLimit: notes.MaxText},
			{Key: "tags", Label: "Tags", Value: strings.Join(note.Tags, " "), Placeholder: "work travel", CharLimit: 200,
				Check: func(v string) string {
					if _, err := notes.ParseTags(v); err != nil {
						return err.Error()
					}
					return ""
				}},
		},
	})
	return screenkit.OpenLocalForm(screenkit.LocalForm{Form: f, Requests: t.Requests, Saved: "note saved",
		Save: func(f *form.Form) func() (tea.Msg, error) {
			tags, _ := notes.ParseTags(f.Value("tags"))
			n := notes.Note{Text: strings.TrimSpace(f.Value("note")), Tags: tags}
			return func() (tea.Msg, error) { return noteSavedMsg{}, book.Set(id, n) }
		}})
}

// openTagChoice asks which tag to list.
func (t *Screen) openTagChoice() tea.Cmd {
	tags := t.notes.Tags()
	if len(tags) == 0 {
		return ui.Notify(theme.ToneInfo, "no tags yet: "+t.keys.Note.Help().Key+" writes a note and tags on a transaction")
	}
	choices := append([]string{""}, tags...)
	f := form.New(t.Deps.Styles, form.Spec{
		Title: "List the transactions of a tag", Submit: "list",
		Lines:  []string{"Every page is read; the gateway knows nothing of tags."},
		Fields: []form.Field{{Key: "tag", Label: "Tag", Kind: form.FieldChoice, Choices: choices, Value: t.tag, Placeholder: "every transaction"}},
	})
	return screenkit.OpenLocalForm(screenkit.LocalForm{Form: f, Requests: t.Requests, Saved: "listing by tag",
		Save: func(f *form.Form) func() (tea.Msg, error) {
			tag := f.Value("tag")
			return func() (tea.Msg, error) { return tagChosenMsg{tag: tag}, nil }
		}})
}

// loadTagged reads every page of the filter and keeps the tag's.
func (t *Screen) loadTagged(f apiclient.TransactionFilter) tea.Cmd {
	client, book, tag := t.Deps.Client, t.notes, t.tag
	f.Page = 0
	return ui.Start(t.Requests, &t.loadID, func(ctx context.Context) (transactionLoad, error) {
		var kept []apiclient.Transaction
		_, err := statement.Walk(ctx, client, statement.Query{Filter: f, Keep: tagKeep(book, tag)}, func(x *apiclient.Transaction) error {
			kept = append(kept, *x)
			return nil
		}, nil)
		if err == nil && len(kept) == 0 {
			err = errors.New("no transaction carries #" + tag)
		}
		return transactionLoad{filter: f, page: apiclient.TransactionPage{Transactions: kept}}, err
	})
}

// tagKeep keeps the transactions carrying tag; nil for no tag.
func tagKeep(book *notes.Book, tag string) func(*apiclient.Transaction) bool {
	if tag == "" || book == nil {
		return nil
	}
	return func(x *apiclient.Transaction) bool { return book.Tagged(x.ID, tag) }
}

// bothKeep keeps what both tests keep (a nil test keeps everything).
func bothKeep(a, b func(*apiclient.Transaction) bool) func(*apiclient.Transaction) bool {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(x *apiclient.Transaction) bool { return a(x) && b(x) }
}

// noteFields are the selected transaction's note and tags for the
// detail pane; none when it has neither.
func (t *Screen) noteFields(x *apiclient.Transaction) []screenkit.Field {
	n := t.notes.Get(x.ID)
	var out []screenkit.Field
	if n.Text != "" {
		out = append(out, screenkit.Field{Label: "Note", Value: n.Text})
	}
	if len(n.Tags) > 0 {
		out = append(out, screenkit.Field{Label: "Tags", Value: "#" + strings.Join(n.Tags, " #")})
	}
	return out
}

// notesColumns gives a statement the notes' columns; nil without notes.
func (t *Screen) notesColumns() func(id string) (string, string) {
	if t.notes == nil {
		return nil
	}
	return t.notes.Columns
}
