package sandbox

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
)

// Every journal frame is checked at start, before anything is written:
// a damaged frame anywhere but a torn last frame of the newest journal
// (the request in flight when the process died, never answered) refuses
// the start, naming the file, the byte offset and the reason, and leaves
// every file as it was. `cardterm sandbox repair` (repair.go) then keeps
// the good frames before the damage and sets the rest aside.

// frameHeader is the size of a frame's magic, length and checksum.
const frameHeader = 12

// journalDamage is the first frame of a journal that is not sound.
type journalDamage struct {
	offset int64 // where the frame starts
	frame  int   // its number, from 1
	why    string
	// torn: an incomplete frame at the end of the file, one whose
	// checksum fails and that ends the file, or zeros to the end, with no
	// whole frame after it: a write a crash cut short.
	torn bool
}

// journalScan is what a journal holds: its whole frames' payloads, in
// order, up to the first damage (nil when every frame is sound).
type journalScan struct {
	payloads [][]byte
	good     int64 // bytes of whole frames before the damage
	damage   *journalDamage
}

// scanJournal checks the frames of a journal's bytes.
func scanJournal(data []byte) journalScan {
	var scan journalScan
	for off := 0; off < len(data); {
		frame := len(scan.payloads) + 1
		damaged := func(torn bool, why string) journalScan {
			scan.damage = &journalDamage{offset: int64(off), frame: frame, why: why, torn: torn && !wholeFrameAfter(data[off+1:])}
			return scan
		}
		rest := data[off:]
		if len(bytes.Trim(rest, "\x00")) == 0 {
			// Zeros to the end: the file grew but the write never landed
			// (some filesystems show this after a crash).
			return damaged(true, "the file ends in zeros where a frame should be")
		}
		if !bytes.HasPrefix(rest, []byte(journalMagic)[:min(len(journalMagic), len(rest))]) {
			if off == 0 {
				return damaged(false, "it does not start like a journal of cardterm's sandbox")
			}
			return damaged(false, "no frame starts here (the magic "+journalMagic+" is missing)")
		}
		if len(rest) < frameHeader {
			return damaged(true, "the frame's header is cut short")
		}
		n := int(binary.LittleEndian.Uint32(rest[4:]))
		if len(rest)-frameHeader < n {
			return damaged(true, fmt.Sprintf("the frame says %d bytes follow, and only %d do", n, len(rest)-frameHeader))
		}
		payload := rest[frameHeader : frameHeader+n]
		if crc32.Checksum(payload, journalTable) != binary.LittleEndian.Uint32(rest[8:]) {
			return damaged(len(rest) == frameHeader+n, "the checksum does not match the frame's contents")
		}
		if !json.Valid(payload) || payload[0] != '{' {
			return damaged(false, "a frame with a sound checksum is not a JSON object")
		}
		scan.payloads = append(scan.payloads, payload)
		off += frameHeader + n
		scan.good = int64(off)
	}
	return scan
}

// wholeFrameAfter reports whether data holds a whole, sound frame
// somewhere: damage followed by one is not a torn last write.
func wholeFrameAfter(data []byte) bool {
	for {
		i := bytes.Index(data, []byte(journalMagic))
		if i < 0 {
			return false
		}
		data = data[i:]
		if len(data) >= frameHeader {
			n := int(binary.LittleEndian.Uint32(data[4:]))
			if len(data)-frameHeader >= n && crc32.Checksum(data[frameHeader:frameHeader+n], journalTable) == binary.LittleEndian.Uint32(data[8:]) {
				return true
			}
		}
		data = data[1:]
	}
}

// checkJournals scans every journal of dir, reading only. It refuses
// damage anywhere but a torn last frame of the newest journal, and
// returns each journal's scan by generation.
func checkJournals(dir string) (map[uint64]journalScan, error) {
	gens, err := journalGenerations(dir)
	if err != nil {
		return nil, err
	}
	scans := make(map[uint64]journalScan, len(gens))
	for i, gen := range gens {
		path := journalPath(dir, gen)
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("data directory: %w", err)
		}
		scan := scanJournal(data)
		if d := scan.damage; d != nil && !(d.torn && i == len(gens)-1) {
			return nil, journalRefusal(dir, path, d)
		}
		scans[gen] = scan
	}
	return scans, nil
}

// journalRefusal says where a journal is damaged, and what to do.
func journalRefusal(dir, path string, d *journalDamage) error {
	where := fmt.Sprintf("frame %d at byte %d", d.frame, d.offset)
	if d.torn {
		where += " (an incomplete last frame in a journal that is not the newest)"
	}
	return fmt.Errorf("%s: %s: %s; refusing to start, nothing was changed. `cardterm sandbox repair --data %s` keeps the frames before it and sets the rest aside",
		path, where, d.why, filepath.Clean(dir))
}

// applyPayloads folds journal payloads into records (null: deleted).
func applyPayloads(payloads [][]byte, into map[string][]byte) error {
	for _, p := range payloads {
		var payload map[string]json.RawMessage
		if err := json.Unmarshal(p, &payload); err != nil {
			return err
		}
		for k, v := range payload {
			if bytes.Equal(v, []byte("null")) {
				into[k] = nil
			} else {
				into[k] = v
			}
		}
	}
	return nil
}
