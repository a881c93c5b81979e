package notes

import (
	"path/filepath"
	"testing"
)

func TestNotesSurviveAReload(t *testing.T) {
	path := File(filepath.Join(t.TempDir(), "work"), "alice@demo.test")
	b, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Set("tx-1", Note{Text: "team lunch", Tags: []string{"work", "food"}}); err != nil {
		t.Fatal(err)
	}
	again, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if note, tags := again.Columns("tx-1"); note != "team lunch" || tags != "work food" {
		t.Fatalf("reloaded %q %q", note, tags)
	}
	if got := again.Tags(); len(got) != 2 || got[0] != "food" {
		t.Fatalf("tags %v", got)
	}
	if err := again.Set("tx-1", Note{}); err != nil || !again.Get("tx-1").Empty() {
		t.Fatalf("an empty note is removed: %v", err)
	}
}

func TestParseTags(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"#Work, travel  work", "[work travel]", true},
		{"", "[]", true},
		{"ok, not/ok", "", false},
	} {
		got, err := ParseTags(c.in)
		if (err == nil) != c.ok || (c.ok && fmtTags(got) != c.want) {
			t.Errorf("%q: %v %v", c.in, got, err)
		}
	}
}

func fmtTags(tags []string) string {
	out := "["
	for i, t := range tags {
		if i > 0 {
			out += " "
		}
		out += t
	}
	return out + "]"
}
