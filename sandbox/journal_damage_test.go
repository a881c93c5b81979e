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
)

// journalOfFrames makes a data directory whose newest journal holds a
// sign-in and then the card frozen and unfrozen in turn (frames: the
// sign-in's session, then one per change), as a kill -9 leaves it.
func journalOfFrames(t *testing.T, dir string, changes int) string {
	t.Helper()
	st, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	withoutCheckpoints(st)
	e := newEnv(t, Options{Store: st})
	alice, _ := e.login("alice@demo.test")
	for i := range changes {
		path := "/v1/card/freeze"
		if i%2 == 1 {
			path = "/v1/card/unfreeze"
		}
		want(t, e.do("POST", path, bearer(alice), nil), 200, "")
	}
	journal := journalPath(dir, st.journalGen)
	crash(st)
	return journal
}

// frameOffsets are where the frames of a journal start.
func frameOffsets(t *testing.T, path string) []int64 {
	t.Helper()
	data, _ := os.ReadFile(path)
	scan := scanJournal(data)
	if scan.damage != nil {
		t.Fatalf("a fresh journal is damaged: %+v", scan.damage)
	}
	var offsets []int64
	var off int64
	for _, p := range scan.payloads {
		offsets = append(offsets, off)
		off += frameHeader + int64(len(p))
	}
	return offsets
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

// One flipped bit in frame 3 of 7: the start is refused with the file,
// the offset and the reason, and no file changes (checksums before and
// after); repair keeps frames 1 and 2, sets the rest aside with a report,
// and the sandbox then starts with what they held.
func TestABitFlipInAMiddleFrameRefusesTheStartAndRepairKeepsThePrefix(t *testing.T) {
	dir := t.TempDir()
	journal := journalOfFrames(t, dir, 6)
	offsets := frameOffsets(t, journal)
	if len(offsets) != 7 {
		t.Fatalf("the journal holds %d frames, want 7", len(offsets))
	}
	data, _ := os.ReadFile(journal)
	original := bytes.Clone(data)
	data[offsets[2]+frameHeader+5] ^= 0x10
	if err := os.WriteFile(journal, data, 0o600); err != nil {
		t.Fatal(err)
	}
	before := dirSums(t, dir)
	_, err := OpenStore(dir)
	if err == nil {
		t.Fatal("a damaged middle frame was accepted")
	}
	for _, want := range []string{journal, fmt.Sprintf("frame 3 at byte %d", offsets[2]), "checksum", "sandbox repair"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not say %q", err, want)
		}
	}
	after := dirSums(t, dir)
	if len(after) != len(before) {
		t.Errorf("files before %d, after %d", len(before), len(after))
	}
	for name, sum := range before {
		if after[name] != sum {
			t.Errorf("%s changed although the start was refused", name)
		}
	}

	report, err := Repair(dir, time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Kept) != 1 || report.Kept[0].Frames != 2 || report.Kept[0].Bytes != offsets[2] {
		t.Errorf("kept %+v; want 2 frames, %d bytes", report.Kept, offsets[2])
	}
	if len(report.SetAside) != 1 || report.SetAside[0].Offset != offsets[2] || report.SetAside[0].Bytes != int64(len(data))-offsets[2] {
		t.Fatalf("set aside %+v; want from byte %d", report.SetAside, offsets[2])
	}
	aside, _ := os.ReadFile(report.SetAside[0].To)
	if !bytes.Equal(aside, data[offsets[2]:]) {
		t.Error("what was set aside is not the journal's tail as it was")
	}
	if kept, _ := os.ReadFile(journal); !bytes.Equal(kept, original[:offsets[2]]) {
		t.Error("the journal kept is not its sound prefix")
	}
	text, _ := os.ReadFile(filepath.Join(report.Folder, "REPORT.txt"))
	for _, want := range []string{"kept      " + journal + ": 2 frames", fmt.Sprintf("from byte %d", offsets[2]), "checksum"} {
		if !strings.Contains(string(text), want) || !strings.Contains(report.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	again := newEnv(t, Options{Store: openTestStore(t, dir)})
	alice, _ := again.login("alice@demo.test")
	if got := again.do("GET", "/v1/card/status", bearer(alice), nil).str("status"); got != cardFrozen {
		t.Errorf("after the repair alice's card is %s, want FROZEN (frame 2)", got)
	}
}

// Damage that only looks like a torn write is refused all the same: a
// length flipped to run past the end with whole frames after it, and an
// incomplete frame at the end of a journal that is not the newest.
func TestDamageThatLooksTornIsRefused(t *testing.T) {
	t.Run("length", func(t *testing.T) {
		dir := t.TempDir()
		journal := journalOfFrames(t, dir, 4)
		offsets := frameOffsets(t, journal)
		data, _ := os.ReadFile(journal)
		data[offsets[1]+7] ^= 0x01 // the length's high byte: 16 MiB more
		_ = os.WriteFile(journal, data, 0o600)
		if _, err := OpenStore(dir); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("frame 2 at byte %d", offsets[1])) {
			t.Errorf("OpenStore = %v; want frame 2 refused", err)
		}
	})
	t.Run("older journal", func(t *testing.T) {
		dir := t.TempDir()
		journal := journalOfFrames(t, dir, 2)
		data, _ := os.ReadFile(journal)
		_ = os.WriteFile(journal, data[:len(data)-3], 0o600)
		newer := journal[:strings.LastIndex(journal, ".")+1] + "999"
		frame, _ := encodeFrame(map[string][]byte{"pin/none": nil})
		_ = os.WriteFile(newer, frame, 0o600)
		if _, err := OpenStore(dir); err == nil || !strings.Contains(err.Error(), "not the newest") {
			t.Errorf("OpenStore = %v; want the older journal's cut frame refused", err)
		}
	})
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
		"group-writable": func(t *testing.T, dir string) string {
			_ = os.Chmod(dir, 0o770)
			return "writable by its group or others"
		},
		"world-writable": func(t *testing.T, dir string) string {
			_ = os.Chmod(dir, 0o707)
			return "writable by its group or others"
		},
		"another user's journal": func(t *testing.T, dir string) string {
			frame, _ := encodeFrame(map[string][]byte{"pin/none": nil})
			path := journalPath(dir, 7)
			_ = os.WriteFile(path, frame, 0o600)
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
			why := arrange(t, dir)
			before := dirSums(t, dir)
			_, err := OpenStore(dir)
			if err == nil || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "refusing") {
				t.Fatalf("OpenStore = %v; want a refusal saying %q", err, why)
			}
			if after := dirSums(t, dir); len(after) != len(before) {
				t.Errorf("a refused directory changed: %v -> %v", before, after)
			}
		})
	}
}

// A journal that ends in zeros (the file grew, the write never landed) is
// a torn last write: the frames before them are replayed.
func TestAJournalEndingInZerosIsATornWrite(t *testing.T) {
	dir := t.TempDir()
	journal := journalOfFrames(t, dir, 1)
	f, _ := os.OpenFile(journal, os.O_APPEND|os.O_WRONLY, 0)
	_, _ = f.Write(make([]byte, 4096))
	f.Close()
	again := newEnv(t, Options{Store: openTestStore(t, dir)})
	alice, _ := again.login("alice@demo.test")
	if got := again.do("GET", "/v1/card/status", bearer(alice), nil).str("status"); got != cardFrozen {
		t.Fatalf("alice's card is %s, want FROZEN from the frames before the zeros", got)
	}
}
