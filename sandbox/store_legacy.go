package sandbox

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Stores of version 1 (cardterm releases before this layout) had no
// checksum on records and kept journals beside the database,
// DIR/sandbox.journal.<generation>: frames of magic "CTJ1" | payload length
// (uint32 LE) | CRC-32C of the payload | payload, a JSON object of record
// key -> record (null: deleted), folded into the database every 2 s; meta
// "checkpoint" named the last generation folded. Such a directory is
// migrated once at open, in one transaction: the journals newer than the
// checkpoint are folded in, every record gets its checksum, the version
// becomes 2; the journals are removed after it commits. A torn last frame
// of the newest journal (the request a crash cut short, never answered) is
// dropped, as the older release did; any other damage refuses the start
// with the file, frame and offset, and repair folds the frames before it.

const (
	legacyJournalPrefix = "sandbox.journal."
	legacyJournalMagic  = "CTJ1"
	legacyFrameHeader   = 12
)

var checkpointKey = []byte("checkpoint")

// legacyJournal is one journal's sound frames, up to its first damage.
type legacyJournal struct {
	path     string
	gen      uint64
	payloads [][]byte
	damage   string // where and why the frames stop; "" when all are sound
	torn     bool   // the damage is a write a crash cut short
}

// isLegacyJournal reports whether name is a journal's, and its generation.
func isLegacyJournal(name string) (uint64, bool) {
	rest, ok := strings.CutPrefix(name, legacyJournalPrefix)
	gen, err := strconv.ParseUint(rest, 10, 64)
	return gen, ok && err == nil
}

// readLegacyJournals reads dir's journals, oldest first, reading only.
func readLegacyJournals(dir string) ([]legacyJournal, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	var journals []legacyJournal
	for _, e := range entries {
		if gen, ok := isLegacyJournal(e.Name()); ok {
			path := filepath.Join(dir, e.Name())
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("data directory: %w", err)
			}
			j := legacyJournal{path: path, gen: gen}
			j.payloads, j.damage, j.torn = scanFrames(data)
			journals = append(journals, j)
		}
	}
	slices.SortFunc(journals, func(a, b legacyJournal) int { return cmp.Compare(a.gen, b.gen) })
	return journals, nil
}

// scanFrames reads a journal's frames up to the first that is not sound.
// torn: that frame is cut short or fails its checksum at the end of the
// file, or the file ends in zeros, with no sound frame after it.
func scanFrames(data []byte) (payloads [][]byte, damage string, torn bool) {
	off := 0
	stop := func(why string, cut bool) ([][]byte, string, bool) {
		return payloads, fmt.Sprintf("frame %d at byte %d: %s", len(payloads)+1, off, why), cut && !soundFrameIn(data[off+1:])
	}
	for off < len(data) {
		rest := data[off:]
		switch {
		case len(bytes.Trim(rest, "\x00")) == 0:
			return stop("the file ends in zeros where a frame should be", true)
		case !bytes.HasPrefix(rest, []byte(legacyJournalMagic)[:min(len(legacyJournalMagic), len(rest))]):
			return stop("no frame starts here (the magic "+legacyJournalMagic+" is missing)", false)
		case len(rest) < legacyFrameHeader:
			return stop("the frame's header is cut short", true)
		}
		n := int(binary.LittleEndian.Uint32(rest[4:]))
		if len(rest)-legacyFrameHeader < n {
			return stop(fmt.Sprintf("the frame says %d bytes follow, and only %d do", n, len(rest)-legacyFrameHeader), true)
		}
		payload := rest[legacyFrameHeader : legacyFrameHeader+n]
		if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(rest[8:]) {
			return stop("the checksum does not match the frame's contents", len(rest) == legacyFrameHeader+n)
		}
		if !json.Valid(payload) || n == 0 || payload[0] != '{' {
			return stop("a frame with a sound checksum is not a JSON object", false)
		}
		payloads = append(payloads, payload)
		off += legacyFrameHeader + n
	}
	return payloads, "", false
}

// soundFrameIn reports whether a whole, sound frame starts anywhere in
// data: damage followed by one is not a torn last write.
func soundFrameIn(data []byte) bool {
	for {
		i := bytes.Index(data, []byte(legacyJournalMagic))
		if i < 0 {
			return false
		}
		data = data[i:]
		if len(data) >= legacyFrameHeader {
			n := int(binary.LittleEndian.Uint32(data[4:]))
			if len(data)-legacyFrameHeader >= n && crc32.Checksum(data[legacyFrameHeader:legacyFrameHeader+n], castagnoli) == binary.LittleEndian.Uint32(data[8:]) {
				return true
			}
		}
		data = data[1:]
	}
}

// refuseDamagedJournals refuses damage anywhere but a torn last frame of
// the newest journal.
func refuseDamagedJournals(dir string, journals []legacyJournal) error {
	for i, j := range journals {
		if j.damage == "" || (j.torn && i == len(journals)-1) {
			continue
		}
		why := j.damage
		if j.torn {
			why += " (an incomplete last frame in a journal that is not the newest)"
		}
		return fmt.Errorf("%s (a journal of an older cardterm): %s; refusing to start, nothing was changed. `cardterm sandbox repair --data %s` folds the frames before it in and sets the journals aside",
			j.path, why, filepath.Clean(dir))
	}
	return nil
}

// foldJournals applies the frames of the journals newer than covered, up
// to the first damage (what follows it is not folded: a store must be a
// prefix of what was acknowledged), onto records (nil: deleted).
func foldJournals(journals []legacyJournal, covered uint64, records map[string][]byte) error {
	for _, j := range journals {
		if j.gen <= covered {
			continue
		}
		for _, p := range j.payloads {
			var payload map[string]json.RawMessage
			if err := json.Unmarshal(p, &payload); err != nil {
				return fmt.Errorf("%s: %v", j.path, err)
			}
			for k, v := range payload {
				records[k] = v
				if bytes.Equal(v, []byte("null")) {
					records[k] = nil
				}
			}
		}
		if j.damage != "" {
			return nil
		}
	}
	return nil
}

// migrate makes a store of an older version the current one: every record
// sealed, the journals it does not cover folded in.
func migrate(tx *bolt.Tx, version int, journals []legacyJournal) error {
	meta, state := tx.Bucket(bucketMeta), tx.Bucket(bucketState)
	records := map[string][]byte{}
	if version < 2 { // records without a checksum: written again with one
		if err := state.ForEach(func(k, v []byte) error { records[string(k)] = bytes.Clone(v); return nil }); err != nil {
			return err
		}
	}
	covered, _ := strconv.ParseUint(string(meta.Get(checkpointKey)), 10, 64)
	if err := foldJournals(journals, covered, records); err != nil {
		return err
	}
	if err := putRecords(state, records); err != nil {
		return err
	}
	if len(journals) > 0 { // should a removal fail, the next open skips them
		covered = max(covered, journals[len(journals)-1].gen)
		if err := meta.Put(checkpointKey, []byte(strconv.FormatUint(covered, 10))); err != nil {
			return err
		}
	}
	return meta.Put(versionKey, []byte(strconv.Itoa(storeVersion)))
}

// removeLegacyJournals removes journals folded into the database.
func removeLegacyJournals(dir string, journals []legacyJournal) {
	for _, j := range journals {
		_ = os.Remove(j.path)
	}
	if len(journals) > 0 {
		syncDir(dir)
	}
}
