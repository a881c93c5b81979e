package whitelist

import (
	"runtime"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/ui/uitest"
)

// Packed entries give back the fields they were packed from, the dates as
// the table shows them, and each record exactly as the gateway sent it;
// an entry of 64 KiB or more packs too.
func TestPackedBatchKeepsWhatTheScreenUses(t *testing.T) {
	memo, used := "123456", "2025-01-09T20:21:00Z"
	long := strings.Repeat("é", 40_000) // 80,000 bytes: the batch's ends go wide
	for _, tc := range []struct {
		name  string
		names [3]string
	}{{"narrow", [3]string{"Savings", "Ann", "Lee"}}, {"wide", [3]string{long, "", "Lee"}}} {
		batch := []apiclient.WhitelistEntry{
			{ID: "w1", Name: tc.names[0], BeneficiaryFirstName: tc.names[1], BeneficiaryLastName: tc.names[2],
				WalletAddress: "0xabc", WalletMemo: &memo, LastUsedAt: &used, CreatedAt: "2025-01-06T10:23:21Z",
				Currency: "xrp", Raw: `{"id":"w1","name":"S\u0061vings"}`},
			{ID: "w2", Name: "", BeneficiaryFirstName: "Bo", WalletAddress: "0xdef", CreatedAt: "yesterday",
				Raw: `{"id":"w2"}`},
		}
		var p packer
		b := p.pack(batch)
		if (b.wide != nil) != (tc.name == "wide") {
			t.Fatalf("%s: wide %v", tc.name, b.wide != nil)
		}
		store := &entryStore{}
		store.add(b)
		store.add(p.pack(batch[1:])) // a second, shorter batch
		wantBeneficiary := strings.TrimSpace(tc.names[1] + " " + tc.names[2])
		for col, want := range []string{tc.names[0], wantBeneficiary, "0xabc", "123456", "2025-01-09", "2025-01-06"} {
			if got := store.entryCell(0, col); got != want {
				t.Fatalf("%s: cell %d %.20q, want %.20q", tc.name, col, got, want)
			}
		}
		for col, want := range []string{"", "Bo", "0xdef", "", "never", "yesterday"} {
			if got := store.entryCell(1, col); got != want || store.entryCell(2, col) != want {
				t.Fatalf("%s: cell %d %q, want %q", tc.name, col, got, want)
			}
		}
		e := store.at(0)
		if e.ID != "w1" || e.Name != tc.names[0] || beneficiary(e) != wantBeneficiary || *e.WalletMemo != memo || *e.LastUsedAt != "2025-01-09" {
			t.Fatalf("%s: entry %+v", tc.name, e)
		}
		if e := store.at(1); e.WalletMemo != nil || e.LastUsedAt != nil || e.ID != "w2" {
			t.Fatalf("%s: entry %+v", tc.name, e)
		}
		if got := store.record(0); got != `{"id":"w1","name":"S\u0061vings"}` {
			t.Fatalf("%s: record %q", tc.name, got)
		}
		if got := store.record(2); got != `{"id":"w2"}` {
			t.Fatalf("%s: record %q", tc.name, got)
		}
	}
}

// An entry whose name is 10 MB (with a bell, which must be rewritten)
// costs a frame what any entry costs; y still copies it whole.
func TestWhitelistFrameReadsNoMoreOfALongName(t *testing.T) {
	huge := "\a" + strings.Repeat("n", 10<<20)
	w := bigWhitelist(3)
	var p packer
	store := &entryStore{}
	store.add(p.pack([]apiclient.WhitelistEntry{{ID: "w1", Name: huge, WalletAddress: "0xabc", Raw: `{"id":"w1"}`}}))
	w.setStore(store)
	w.SetSize(100, 38)
	_ = w.View()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	view := w.View()
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
		t.Fatalf("a frame allocated %d bytes", n)
	}
	if !strings.Contains(uitest.Plain(view), `Name \x07nnn`) {
		t.Fatalf("view %q", view)
	}
	if _, copied, _ := w.CopyValue(); !strings.Contains(copied, `\x07`+strings.Repeat("n", 10<<20)) {
		t.Fatal("the copy lost the name's end")
	}
}
