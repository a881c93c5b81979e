package sandbox

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unsafe"

	bolt "go.etcd.io/bbolt"
)

// storeWithChanges is a closed data directory where alice's card is
// frozen and frank has 200 whitelist entries (about a dozen leaf pages).
func storeWithChanges(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	st, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Options{Store: st})
	alice, _ := e.login("alice@demo.test")
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	if _, err := e.s.SeedWhitelist("frank@demo.test", "usdc", 200); err != nil {
		t.Fatal(err)
	}
	e.s.Close()
	st.Close()
	return dir
}

// liveRecords are the keys of a closed store's records under prefix, in
// key order, with where each one's stored bytes (checksum, JSON) start.
func liveRecords(t *testing.T, dir, prefix string) (keys []string, offsets []int64) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, StoreFile), 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_ = db.View(func(tx *bolt.Tx) error {
		base := tx.DB().Info().Data
		c := tx.Bucket(bucketState).Cursor()
		for k, v := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)); k, v = c.Next() {
			keys = append(keys, string(k))
			offsets = append(offsets, int64(uintptr(unsafe.Pointer(&v[0]))-base))
		}
		return nil
	})
	return keys, offsets
}

// damage overwrites the database's bytes at offset.
func damage(t *testing.T, dir string, offset int64, with []byte) []byte {
	t.Helper()
	path := filepath.Join(dir, StoreFile)
	data, _ := os.ReadFile(path)
	copy(data[offset:], with)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return data
}

// dirSums is the SHA-256 of every file of a data directory by name.
func dirSums(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	sums := map[string][32]byte{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
			sums[e.Name()] = sha256.Sum256(data)
		}
	}
	return sums
}

// refusedUnchanged opens dir, wants a refusal saying each of says, and
// wants every file as it was.
func refusedUnchanged(t *testing.T, dir string, says ...string) {
	t.Helper()
	before := dirSums(t, dir)
	_, err := OpenStore(dir)
	if err == nil {
		t.Fatal("the damaged store was accepted")
	}
	t.Logf("refused: %v", err)
	for _, want := range says {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not say %q", err, want)
		}
	}
	if after := dirSums(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("a refused directory changed: %v -> %v", before, after)
	}
}

// repairAt is a repair at a fixed time, which must succeed.
func repairAt(t *testing.T, dir string) RepairReport {
	t.Helper()
	report, err := Repair(dir, time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("repair:\n%s", report)
	text, _ := os.ReadFile(filepath.Join(report.Folder, "REPORT.txt"))
	if string(text) != report.String() {
		t.Errorf("REPORT.txt is not the report:\n%s", text)
	}
	return report
}

// aliceAndFrank starts a sandbox on dir (and closes it): alice's card
// status and the number of frank's whitelist entries.
func aliceAndFrank(t *testing.T, dir string) (string, int) {
	t.Helper()
	st := openTestStore(t, dir)
	defer st.Close()
	e := newEnv(t, Options{Store: st})
	alice, _ := e.login("alice@demo.test")
	status := e.do("GET", "/v1/card/status", bearer(alice), nil).str("status")
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	_, frank := e.s.seededUser(DemoUserID("frank@demo.test"))
	return status, len(walletsOf(frank).whitelist)
}

// One flipped bit in a record: the start is refused with the file, the
// byte offset, the page, the record and the reason, and no file changes;
// repair keeps every other record, sets the file aside with a report, and
// the sandbox then starts with them.
func TestAFlippedBitInARecordRefusesTheStartAndRepairKeepsTheRest(t *testing.T) {
	dir := storeWithChanges(t)
	all, _ := liveRecords(t, dir, "")
	keys, offsets := liveRecords(t, dir, "whitelist/")
	hit, at := keys[100], offsets[100]
	original, _ := os.ReadFile(filepath.Join(dir, StoreFile))
	damaged := damage(t, dir, at+20, []byte{original[at+20] ^ 0x10})
	refusedUnchanged(t, dir, filepath.Join(dir, StoreFile), fmt.Sprintf("at byte %d (page %d)", at, at/4096),
		hit, "the checksum does not match", "sandbox repair")

	report := repairAt(t, dir)
	if len(report.Lost) != 1 || !strings.Contains(report.Lost[0], hit) || report.Kept != len(all)-1 {
		t.Errorf("lost %q, kept %d; want %s lost and every other record kept", report.Lost, report.Kept, hit)
	}
	if aside, _ := os.ReadFile(filepath.Join(report.Folder, StoreFile)); !bytes.Equal(aside, damaged) {
		t.Error("the file set aside is not the damaged file as it was")
	}
	if status, entries := aliceAndFrank(t, dir); status != cardFrozen || entries != 199 {
		t.Errorf("after the repair: alice's card %s, frank's entries %d; want FROZEN and 199", status, entries)
	}
}

// A leaf page overwritten: bbolt's check refuses the start naming the
// page and its offset; repair reads around it, from both ends.
func TestADamagedPageRefusesTheStartWithItsPageAndRepairReadsAroundIt(t *testing.T) {
	dir := storeWithChanges(t)
	_, offsets := liveRecords(t, dir, "whitelist/")
	page := offsets[100] / 4096
	damage(t, dir, page*4096+8, []byte{0xff, 0xff}) // the page's type
	refusedUnchanged(t, dir, fmt.Sprintf("at byte %d (page %d)", page*4096, page), "sandbox repair")

	report := repairAt(t, dir)
	if len(report.Damage) == 0 || !strings.Contains(report.Damage[0], fmt.Sprintf("page %d", page)) {
		t.Errorf("damage %q; want page %d named", report.Damage, page)
	}
	status, entries := aliceAndFrank(t, dir)
	if status != cardFrozen || entries < 150 || entries >= 200 {
		t.Errorf("after the repair: alice's card %s, frank's entries %d; want FROZEN and all but one page's", status, entries)
	}
	t.Logf("kept %d records; lost %q", report.Kept, report.Lost)
}

func TestRepairChangesNothingInASoundStore(t *testing.T) {
	dir := storeWithChanges(t)
	before := dirSums(t, dir)
	report, err := Repair(dir, time.Now())
	if err != nil || report.Folder != "" || !strings.HasPrefix(report.String(), "Nothing to repair in "+dir) {
		t.Fatalf("repair of a sound store: %v\n%s", err, report)
	}
	if after := dirSums(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Error("repair changed a sound store")
	}
}

// An empty or symbolic-link database, a file the sandbox does not write,
// a file of another user and a folder others may write to are refused
// with the reason, and nothing is written.
func TestDataDirectoryChecks(t *testing.T) {
	cases := map[string]func(t *testing.T, dir string) string{
		"empty database": func(t *testing.T, dir string) string {
			_ = os.WriteFile(filepath.Join(dir, StoreFile), nil, 0o600)
			return "empty"
		},
		"dangling symlink": func(t *testing.T, dir string) string {
			_ = os.Symlink(filepath.Join(t.TempDir(), "nowhere.db"), filepath.Join(dir, StoreFile))
			return "symbolic link"
		},
		"symlink to a store": func(t *testing.T, dir string) string {
			other := t.TempDir()
			openTestStore(t, other).Close()
			_ = os.Symlink(filepath.Join(other, StoreFile), filepath.Join(dir, StoreFile))
			return "symbolic link"
		},
		"foreign file": func(t *testing.T, dir string) string {
			_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600)
			return "a file the sandbox does not write"
		},
		// Under two bbolt pages (8 KiB), bbolt would call it too small,
		// as it would a damaged store, which repair would set aside.
		"another program's small database": func(t *testing.T, dir string) string {
			_ = os.WriteFile(filepath.Join(dir, StoreFile), []byte("SQLite format 3\x00"+strings.Repeat("x", 6000)), 0o600)
			return "not a cardterm sandbox store"
		},
		"group-writable": func(t *testing.T, dir string) string {
			_ = os.Chmod(dir, 0o770)
			return "writable by its group or others"
		},
		"world-writable": func(t *testing.T, dir string) string {
			_ = os.Chmod(dir, 0o707)
			return "writable by its group or others"
		},
		"another user's journal": func(t *testing.T, dir string) string {
			path := filepath.Join(dir, legacyJournalPrefix+"7")
			_ = os.WriteFile(path, []byte("CTJ1"), 0o600)
			_ = os.Chown(path, 4242, 4242) // as root; store_checks_unix_test.go covers the rest
			return "belongs to another user"
		},
	}
	if os.Getuid() != 0 {
		delete(cases, "another user's journal")
	}
	for name, arrange := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			says := arrange(t, dir)
			refusedUnchanged(t, dir, says, "refusing")
			before := dirSums(t, dir)
			if _, err := Repair(dir, time.Now()); err == nil || !strings.Contains(err.Error(), says) {
				t.Errorf("repair = %v, want a refusal saying %q", err, says)
			}
			if after := dirSums(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("repair changed a refused directory: %v -> %v", before, after)
			}
		})
	}
}
