// Package form is the one form every screen uses: labelled fields (text,
// secret, multi-line, a choice, a checklist), a check per field, the
// gateway's problem under the form and what was typed kept whatever happens.
// One submit rule everywhere: ctrl+s sends from any field, enter on the
// last one-line field sends, esc leaves. It builds on ui's notices and
// requests (a paste is reported with ui.Notify, a submit is a ui.Start), so
// ui never imports it.
package form
