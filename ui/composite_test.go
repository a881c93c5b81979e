package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
)

// A dialog over a body of wide and combining characters: every row is the
// body's width, the box's rows (and one either side) hold the box and
// nothing else, and each box row keeps its border at the same columns.
func TestDialogCompositedOverWideCharacters(t *testing.T) {
	st := theme.New(true, false)
	d := &dialog{spec: ConfirmSpec{
		Title: "Geld überweisen 日本語 cafe\u0301",
		Lines: []string{"Gebühr 0,00 € für 日本 und 🎉 party", "second line"},
	}, keys: DialogKeys()}
	for _, size := range [][2]int{{80, 22}, {61, 15}, {118, 37}} {
		bw, bh := size[0], size[1]
		var rows []string
		for i := range bh {
			// Offset odd rows by one cell so a wide character straddles
			// the box's left and right edges on some rows.
			rows = append(rows, strings.Repeat(" ", i%2)+strings.Repeat("日本語x", bw))
		}
		box := d.view(&st, bw-2, bh)
		out := composite(strings.Join(rows, "\n"), box, bw, bh)
		lines := strings.Split(ansi.Strip(out), "\n")
		if len(lines) != bh {
			t.Fatalf("%dx%d: %d rows", bw, bh, len(lines))
		}
		boxLines := strings.Split(ansi.Strip(box), "\n")
		x := (bw - ansi.StringWidth(boxLines[0])) / 2
		y := (bh - len(boxLines)) / 2
		for i, l := range lines {
			if w := ansi.StringWidth(l); w != bw {
				t.Errorf("%dx%d row %d is %d cells: %q", bw, bh, i, w, l)
			}
			switch {
			case i >= y && i < y+len(boxLines):
				want := strings.Repeat(" ", x) + boxLines[i-y]
				want += strings.Repeat(" ", bw-ansi.StringWidth(want))
				if l != want {
					t.Errorf("%dx%d row %d:\n got %q\nwant %q", bw, bh, i, l, want)
				}
			case i == y-1 || i == y+len(boxLines):
				if strings.TrimSpace(l) != "" {
					t.Errorf("%dx%d row %d beside the box is not blank: %q", bw, bh, i, l)
				}
			case !strings.Contains(l, "日本語x"):
				t.Errorf("%dx%d row %d lost the body: %q", bw, bh, i, l)
			}
		}
	}
}

// BenchmarkDialogComposite is one frame's dialog: a confirmation box
// composited over a 118x37 body (the body of a 140x40 terminal).
func BenchmarkDialogComposite(b *testing.B) {
	st := theme.New(true, false)
	d := &dialog{spec: ConfirmSpec{Title: "Freeze the card ending 4242?", Request: []string{"POST /v1/card/freeze"},
		Lines: []string{"All transaction attempts will be declined until you unfreeze it."}}, keys: DialogKeys()}
	body := FitBlock(strings.Repeat(strings.Repeat("Card  Status  ACTIVE  ", 6)+"\n", 37), 118, 37)
	box := d.view(&st, 116, 37)
	b.ReportAllocs()
	for b.Loop() {
		_ = composite(body, box, 118, 37)
	}
}
