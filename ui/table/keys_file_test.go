package table_test

import (
	"testing"

	"cardterm/ui/uitest"
)

// A keys file that moves global.filter moves every table's filter key:
// the help names the key in force, so the table must obey it.
func TestKeysFileMovesTheFilterKey(t *testing.T) {
	uitest.UseKeys(t, "global.filter: F\n")
	tb := newTable(10, 60, 10)
	if tb = press(tb, "/"); tb.Filtering() {
		t.Fatal("/ still starts the filter after the keys file moved it to F")
	}
	if tb = press(tb, "F"); !tb.Filtering() {
		t.Fatal("F does not start the filter")
	}
}
