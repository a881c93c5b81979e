package transactions

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/domain/statement"
)

// x writes the list as filtered, every page of it, to the file named: the
// quick filter's rows only, as many as the gateway has, and a notice says
// where. A name already taken is refused on the form, what was typed kept.
func TestExportWritesTheFilteredListToAFile(t *testing.T) {
	r := transactionRig(t, "alice@demo.test")
	dir := t.TempDir()
	taken := filepath.Join(dir, "taken.csv")
	if err := os.WriteFile(taken, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.Keys("/")
	r.Type("declined")
	r.Keys("enter", "x")
	r.Want("Export transactions", "rows holding \"declined\"", ".csv, .json, .jsonl")
	r.Keys("ctrl+u")
	r.Type(taken)
	r.Keys("enter")
	r.Want("a file of that name is there already", "taken.csv")
	if data, _ := os.ReadFile(taken); string(data) != "mine" {
		t.Fatal("the existing file was touched")
	}
	path := filepath.Join(dir, "declined.csv")
	r.Keys("ctrl+u")
	r.Type(path)
	r.Keys("enter")
	if !strings.Contains(r.Notices(), "wrote ") || !strings.Contains(r.Notices(), "to "+path) {
		t.Fatalf("no notice of the file written: %s", r.Notices())
	}
	want := 0
	for f := (apiclient.TransactionFilter{}); ; f.Page++ {
		page, err := r.Client.Transactions(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Transactions) == 0 {
			break
		}
		for _, x := range page.Transactions {
			if x.Status == apiclient.TxDeclined {
				want++
			}
		}
	}
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	rows, err := csv.NewReader(file).ReadAll()
	if err != nil || len(rows)-1 != want || want == 0 {
		t.Fatalf("%v: %d rows, the gateway has %d declined", err, len(rows)-1, want)
	}
	for _, row := range rows[1:] {
		if row[2] != apiclient.TxDeclined {
			t.Fatalf("a row the quick filter hides: %q", row)
		}
	}
	if _, err := os.Stat(path + ".partial"); !os.IsNotExist(err) {
		t.Fatal("the partial file was left behind")
	}
	if tr := r.Screen.(*Screen); tr.export != nil {
		t.Fatal("the export still runs")
	}
}

// An export cancelled (esc cancels the screen's requests) writes nothing
// and says so.
func TestCancelledExportLeavesNothing(t *testing.T) {
	r := transactionRig(t, "alice@demo.test")
	path := filepath.Join(t.TempDir(), "all.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := statement.ExportFile(ctx, r.Client, statement.Query{}, path, nil); err == nil {
		t.Fatal("a cancelled export succeeded")
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
	tr := r.Screen.(*Screen)
	cmd := tr.startExport(path)
	tr.Requests.Cancel()
	r.Drive(cmd)
	if !strings.Contains(r.Notices(), "export cancelled: nothing written") {
		t.Fatalf("notices: %s", r.Notices())
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("a cancelled export wrote the file")
	}
}

// While an export runs the heading is its progress bar.
func TestExportProgressInTheHeading(t *testing.T) {
	r := transactionRig(t, "alice@demo.test")
	tr := r.Screen.(*Screen)
	tr.export = &exportRun{path: "x.csv", last: statement.Progress{Kept: 120, Pages: 3, Reached: "2026-10-01", Fraction: 0.5}}
	tr.staleFrame()
	v := r.Want("Exporting", "50%", "120 rows, 3 pages, back to 2026-10-01", "esc cancels")
	if !strings.Contains(v, strings.Repeat("█", 5)) || !strings.Contains(v, "░") {
		t.Fatalf("no bar:\n%s", v)
	}
}
