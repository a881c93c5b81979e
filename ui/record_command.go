package ui

import (
	"context"
	"fmt"
	"log/slog"

	tea "charm.land/bubbletea/v2"

	"cardterm/domain/recordcommand"
	"cardterm/theme"
	"cardterm/ui/layer"
	"cardterm/ui/sanitize"
)

// The user's commands on a record (commands.yaml, domain/recordcommand):
// ! on a screen's selected record offers the commands of its kind, asks
// for a confirmation that shows the exact command, runs it without a
// shell in a tea.Cmd, and shows its output and exit status in a pane.
// It works in read-only mode: the command is the user's, not the
// gateway's.

// RecordFielder is a screen (or panel) whose selected record has fields
// named for people ({merchant}); the others' fields are the JSON the
// gateway sent for it (Inspectable), by path.
type RecordFielder interface {
	RecordFields() (fields map[string]string, ok bool)
}

// runCommandMsg is a confirmed command, sent back by the dialog.
type runCommandMsg struct{ prepared recordcommand.Prepared }

// commandDoneMsg is a command's end.
type commandDoneMsg struct {
	seq    int
	result recordcommand.Result
}

// recordFields is the selected record's kind (the screen's ID) and
// fields: the gateway's JSON, with the screen's own names over it.
func (r *Root) recordFields() (kind string, fields map[string]string, ok bool) {
	s := r.Active()
	if s == nil {
		return "", nil, false
	}
	of := r.inspectable()
	if in, isInspectable := of.(Inspectable); isInspectable {
		if _, raw, has := in.Inspect(); has {
			fields, ok = recordcommand.FieldsOf(raw), true
		}
	}
	if named, isNamed := of.(RecordFielder); isNamed {
		if own, has := named.RecordFields(); has {
			if fields == nil {
				fields = map[string]string{}
			}
			for name, value := range own {
				fields[name] = value
			}
			ok = true
		}
	}
	return string(s.ID()), fields, ok
}

// RecordNamed is a screen that says what one of its records is, in the
// singular ("transaction", "consent set"), for the command chooser's
// title; a screen without one has "<its ID> record".
type RecordNamed interface {
	RecordNoun() string
}

// recordNoun is what the chooser calls a record of screen s, whose kind
// (its ID) names its commands in commands.yaml.
func recordNoun(s Screen, kind string) string {
	if named, ok := s.(RecordNamed); ok && named.RecordNoun() != "" {
		return named.RecordNoun()
	}
	return kind + " record"
}

// runCommandKey is !: the chooser of the record's commands, or the
// confirmation of the only one.
func (r *Root) runCommandKey() tea.Cmd {
	kind, fields, ok := r.recordFields()
	if !ok {
		return Notify(theme.ToneInfo, "no record selected to run a command on")
	}
	commands := r.opts.Commands.For(kind)
	noun := recordNoun(r.Active(), kind)
	switch len(commands) {
	case 0:
		return Notify(theme.ToneInfo, fmt.Sprintf("no command for this %s: add one under %q in commands.yaml (docs/commands.md)", noun, kind))
	case 1:
		return confirmCommand(commands[0], fields)
	}
	r.openRootLayer(newCommandChooser(r.st, noun, commands, func(c recordcommand.Command) tea.Cmd {
		return confirmCommand(c, fields)
	}), layer.Prompt)
	return nil
}

// confirmCommand asks before running: the exact command, and how the
// fields reach it.
func confirmCommand(c recordcommand.Command, fields map[string]string) tea.Cmd {
	prepared, err := c.Prepare(fields)
	if err != nil {
		return Notify(theme.ToneWarn, sanitize.Text(err.Error()))
	}
	how := "Runs without a shell: each field stays inside its own argument."
	if c.Shell != "" {
		how = "Runs in /bin/sh; the record's fields are only in its environment (CARDTERM_FIELD_*)."
	}
	return Confirm(ConfirmSpec{
		Title:        "Run " + c.Name + "?",
		Lines:        []string{"$ " + prepared.Display(), "", how, "Your secrets are not passed to it."},
		ConfirmLabel: "Run",
		Tone:         theme.ToneWarn,
		OnConfirm:    runCommandMsg{prepared: prepared},
	})
}

// updateCommand starts a confirmed command, its pane showing it run, and
// takes its end into the pane and the notices (its exit status is kept in
// the notice log).
func (r *Root) updateCommand(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case runCommandMsg:
		r.commandSeq++
		ctx, cancel := context.WithCancel(context.Background())
		pane := newCommandPane(r.st, msg.prepared, r.commandSeq, cancel)
		r.openRootLayer(pane, layer.Inspector)
		seq, prepared, environment := r.commandSeq, msg.prepared, ChildEnvironment()
		slog.Debug("running a user command", "name", prepared.Name, "argv", prepared.Argv)
		return func() tea.Msg {
			return commandDoneMsg{seq: seq, result: recordcommand.Run(ctx, prepared, environment)}
		}
	case commandDoneMsg:
		name := ""
		if pane, ok := layer.Find[*commandPane](&r.layers, r.owner()); ok && pane.seq == msg.seq {
			pane.finish(msg.result)
			name = pane.prepared.Name
		}
		return commandNotice(name, msg.result)
	}
	return nil
}

// commandNotice is the notice of a command's end.
func commandNotice(name string, result recordcommand.Result) tea.Cmd {
	if name == "" {
		name = "the command"
	}
	switch {
	case result.Err != nil:
		return Notify(theme.ToneDanger, sanitize.Text(fmt.Sprintf("%s did not finish: %v", name, result.Err)))
	case result.ExitCode != 0:
		return Notify(theme.ToneWarn, sanitize.Text(fmt.Sprintf("%s exited with status %d", name, result.ExitCode)))
	}
	return Notify(theme.ToneOK, sanitize.Text(name+" exited with status 0"))
}
