package casefile

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)

// Two agents each read the case, add a note and change its state, and
// write at the same moment: both notes are in the file, the later state
// change wins, and the second writer hears what the first added.
func TestTwoAgentsWritingAtOnceLoseNothing(t *testing.T) {
	dir := t.TempDir()
	path := PathFor(dir, "TCK-1")
	if _, err := New("TCK-1", "ck", t0).Write(path, "ana", t0); err != nil {
		t.Fatal(err)
	}
	ana, _ := Load(path)
	ben, _ := Load(path)
	ana.AddNote(Note{Time: t0.Add(time.Minute), Agent: "ana", Text: "called the customer"})
	ben.AddNote(Note{Time: t0.Add(time.Minute), Agent: "ben", Text: "engineering looks"})
	ben.Take("ben", t0.Add(2*time.Minute))
	if err := ana.SetStatus(StatusWaitingCustomer, "ana", t0.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	results := make([]Written, 2)
	for i, c := range []*Case{ana, ben} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := c.Write(path, []string{"ana", "ben"}[i], t0.Add(4*time.Minute))
			if err != nil {
				t.Error(err)
			}
			results[i] = w
		}()
	}
	wg.Wait()
	final, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(final.Notes) != 2 || final.State.Owner.Value != "ben" || final.Status() != StatusWaitingCustomer || final.Revision != 3 {
		t.Fatalf("merged case: notes %+v, owner %q, status %q, revision %d", final.Notes, final.State.Owner.Value, final.Status(), final.Revision)
	}
	heard := strings.Join(append(results[0].News, results[1].News...), "; ")
	if !strings.Contains(heard, "note") || !(strings.Contains(heard, "ana:") || strings.Contains(heard, "ben:")) {
		t.Fatalf("the second writer heard %q", heard)
	}
}

// Of a note both agents edited, the later edit is kept; entries are
// kept once whichever side holds them.
func TestMergeKeepsTheLaterEditAndEachEntryOnce(t *testing.T) {
	a := New("T", "ck", t0)
	a.AddNote(Note{Time: t0, Agent: "ana", Text: "first"})
	b := a.Clone()
	a.Notes[0].Text, a.Notes[0].Edited = "edited by ana", t0.Add(time.Minute)
	b.Notes[0].Text, b.Notes[0].Edited = "edited by ben", t0.Add(2*time.Minute)
	b.AddLookup(Lookup{Time: t0, Agent: "ben", Kind: "user", ID: "u1"})
	for _, m := range []*Case{Merge(a, b), Merge(b, a)} {
		if len(m.Notes) != 1 || m.Notes[0].Text != "edited by ben" || len(m.Lookups) != 1 || len(m.Activity) != 1 {
			t.Fatalf("merged: %+v", m)
		}
	}
}

// A temporary file a quit left behind is taken in at the next start:
// its last change reaches the case and the file is gone; a torn one is
// named and kept.
func TestAdoptOrphansTakesInTheLastChange(t *testing.T) {
	dir := t.TempDir()
	path := PathFor(dir, "TCK-2")
	c := New("TCK-2", "ck", t0)
	if _, err := c.Write(path, "ana", t0); err != nil {
		t.Fatal(err)
	}
	c.AddNote(Note{Time: t0.Add(time.Minute), Agent: "ana", Text: "the change a quit cut short"})
	orphan := filepath.Join(dir, ".case-123456")
	if err := c.Save(orphan); err != nil {
		t.Fatal(err)
	}
	torn := filepath.Join(dir, ".case-999")
	if err := os.WriteFile(torn, []byte(`{"version":1,"tick`), 0o600); err != nil {
		t.Fatal(err)
	}
	old := t0.Add(-time.Hour)
	if err := os.Chtimes(torn, old, old); err != nil {
		t.Fatal(err)
	}
	adopted, err := AdoptOrphans(dir, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(adopted) != 2 {
		t.Fatalf("adopted %+v", adopted)
	}
	final, _ := Load(path)
	if len(final.Notes) != 1 {
		t.Fatalf("the orphan's note was not taken in: %+v", final.Notes)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Fatalf("the orphan is still there: %v", err)
	}
	if _, err := os.Stat(torn); err != nil {
		t.Fatalf("the torn file was removed: %v", err)
	}
}

// Due is the priority's response time from the opening; waiting and
// solved cases are due nowhere.
func TestDueFollowsPriorityAndStatus(t *testing.T) {
	c := New("T", "ck", t0)
	if due, ok := c.Due(nil); !ok || !due.Equal(t0.Add(24*time.Hour)) {
		t.Fatalf("normal case due %v %v", due, ok)
	}
	if err := c.SetPriority("urgent", "ana", t0); err != nil {
		t.Fatal(err)
	}
	if due, _ := c.Due(map[string]time.Duration{"urgent": 30 * time.Minute}); !due.Equal(t0.Add(30 * time.Minute)) {
		t.Fatalf("urgent due %v", due)
	}
	if err := c.SetStatus(StatusWaitingEngineering, "ana", t0); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Due(nil); ok {
		t.Fatal("a waiting case is due")
	}
	if err := c.SetStatus("closed", "ana", t0); err == nil {
		t.Fatal("an unknown status was taken")
	}
}
