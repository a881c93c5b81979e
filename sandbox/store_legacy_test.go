package sandbox

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// legacyFrame is one frame of an older cardterm's journal around payload.
func legacyFrame(payload string) []byte {
	frame := []byte(legacyJournalMagic)
	frame = binary.LittleEndian.AppendUint32(frame, uint32(len(payload)))
	frame = binary.LittleEndian.AppendUint32(frame, crc32.Checksum([]byte(payload), castagnoli))
	return append(frame, payload...)
}

// pinFrames set card-a's PIN to 1379, then to 2486 beside card-b's, then
// delete card-b's: each a frame.
var pinFrames = []string{
	`{"pin/card-a":{"cardId":"card-a","pin":"1379"}}`,
	`{"pin/card-a":{"cardId":"card-a","pin":"2486"},"pin/card-b":{"cardId":"card-b","pin":"3917"}}`,
	`{"pin/card-b":null}`,
}

// legacyDirectory is a data directory as an older cardterm left it when
// killed: a version 1 database (records without checksums, alice's card
// frozen, journals up to 1 folded) and journal 1 (covered: a bad PIN
// that must not be folded) and journal 2 holding frames.
func legacyDirectory(t *testing.T, frames ...[]byte) (dir, journal string) {
	t.Helper()
	dir = storeWithChanges(t)
	db, err := bolt.Open(filepath.Join(dir, StoreFile), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		state := tx.Bucket(bucketState)
		plain := map[string][]byte{}
		_ = state.ForEach(func(k, v []byte) error { plain[string(k)] = append([]byte(nil), v[4:]...); return nil })
		for k, v := range plain {
			_ = state.Put([]byte(k), v)
		}
		_ = tx.Bucket(bucketMeta).Put(checkpointKey, []byte("1"))
		return tx.Bucket(bucketMeta).Put(versionKey, []byte("1"))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(dir, legacyJournalPrefix+"1"), legacyFrame(`{"pin/card-a":{"cardId":"card-a","pin":"12"}}`), 0o600)
	journal = filepath.Join(dir, legacyJournalPrefix+"2")
	if err := os.WriteFile(journal, joined(frames), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, journal
}

func joined(frames [][]byte) []byte {
	var all []byte
	for _, f := range frames {
		all = append(all, f...)
	}
	return all
}

// pinsOf starts a sandbox on dir: the PINs set, alice's card status.
func pinsOf(t *testing.T, dir string) (string, string) {
	t.Helper()
	st := openTestStore(t, dir)
	defer st.Close()
	s := New(Options{Store: st})
	s.mu.Lock()
	defer s.mu.Unlock()
	_, alice := s.seededUser(DemoUserID("alice@demo.test"))
	return fmt.Sprint(s.pinStore().pins), alice.Card.Status
}

// A directory an older cardterm left is migrated at open: the journals
// the database does not cover are folded in up to a torn last frame (the
// request a kill cut short) and removed, and the records get checksums.
func TestAnOlderDirectoryIsMigratedAtOpen(t *testing.T) {
	frames := [][]byte{legacyFrame(pinFrames[0]), legacyFrame(pinFrames[1]), legacyFrame(pinFrames[2])}
	tails := map[string][]byte{
		"whole frames":     nil,
		"a torn frame":     legacyFrame(`{"pin/card-c":{"cardId":"card-c","pin":"4826"}}`)[:20],
		"zeros to the end": make([]byte, 4096),
	}
	for name, tail := range tails {
		t.Run(name, func(t *testing.T) {
			dir, _ := legacyDirectory(t, append(frames, tail)...)
			if pins, card := pinsOf(t, dir); pins != "map[card-a:2486]" || card != cardFrozen {
				t.Errorf("pins %s, alice's card %s; want card-a's 2486 only and FROZEN", pins, card)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("left in the directory: %v; want the database only", entries)
			}
			if status, entries := aliceAndFrank(t, dir); status != cardFrozen || entries != 200 {
				t.Errorf("after migrating: %s, %d entries", status, entries)
			}
		})
	}
}

// Damage in a journal that is no torn last write refuses the start with
// the file, the frame, its offset and why, and changes nothing.
func TestADamagedOlderJournalIsRefused(t *testing.T) {
	frames := [][]byte{legacyFrame(pinFrames[0]), legacyFrame(pinFrames[1]), legacyFrame(pinFrames[2])}
	second := len(frames[0])
	cases := map[string]struct {
		arrange func(t *testing.T, dir, journal string)
		says    string
	}{
		"a bit flipped in a middle frame": {func(t *testing.T, dir, journal string) {
			data, _ := os.ReadFile(journal)
			data[second+legacyFrameHeader+5] ^= 0x10
			_ = os.WriteFile(journal, data, 0o600)
		}, fmt.Sprintf("frame 2 at byte %d: the checksum does not match", second)},
		"a length past the end, frames after it": {func(t *testing.T, dir, journal string) {
			data, _ := os.ReadFile(journal)
			data[second+7] ^= 0x01
			_ = os.WriteFile(journal, data, 0o600)
		}, fmt.Sprintf("frame 2 at byte %d: the frame says", second)},
		"a cut frame in a journal not the newest": {func(t *testing.T, dir, journal string) {
			data, _ := os.ReadFile(journal)
			_ = os.WriteFile(journal, data[:len(data)-3], 0o600)
			_ = os.WriteFile(filepath.Join(dir, legacyJournalPrefix+"9"), legacyFrame(`{"pin/none":null}`), 0o600)
		}, "not the newest"},
		"a file of another program": {func(t *testing.T, dir, journal string) {
			_ = os.WriteFile(filepath.Join(dir, legacyJournalPrefix+"9"), []byte("somebody else's file"), 0o600)
		}, "frame 1 at byte 0: no frame starts here"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir, journal := legacyDirectory(t, frames...)
			c.arrange(t, dir, journal)
			refusedUnchanged(t, dir, legacyJournalPrefix, c.says, "sandbox repair")
		})
	}
}

// Repair folds a damaged journal's frames before the damage, none after,
// and sets the journals and the older database aside.
func TestRepairFoldsTheSoundFramesOfAnOlderJournal(t *testing.T) {
	dir, journal := legacyDirectory(t, legacyFrame(pinFrames[0]), legacyFrame(pinFrames[1]), legacyFrame(pinFrames[2]))
	data, _ := os.ReadFile(journal)
	data[len(legacyFrame(pinFrames[0]))+legacyFrameHeader+5] ^= 0x10
	_ = os.WriteFile(journal, data, 0o600)
	report := repairAt(t, dir)
	text := report.String()
	for _, want := range []string{"damaged   " + journal + ": frame 2", "folded    " + journal + ": 1 sound frame ",
		"set aside " + journal + ", now " + filepath.Join(report.Folder, legacyJournalPrefix+"2")} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	if pins, card := pinsOf(t, dir); pins != "map[card-a:1379]" || card != cardFrozen {
		t.Errorf("after the repair: pins %s, alice's card %s; want card-a's 1379 (frame 1) and FROZEN", pins, card)
	}
}
