package sandbox

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The journal makes a change durable with one append and one fdatasync;
// a bbolt commit costs two syncs and, on a busy disk, more than the 5 ms
// a change may take at p99. Records reach the database in the background
// (a checkpoint about every checkpointEvery), in one synced bbolt
// transaction that also notes which journal it covers; the journals it
// covers are then removed. After a crash, OpenStore replays the journals
// the database does not cover yet, up to a torn last frame (the request
// that was in flight, never answered); any other damage refuses the start
// (journal_scan.go).
//
// A journal is DIR/sandbox.journal.<generation>: frames of
// magic "CTJ1" | payload length (uint32 LE) | CRC-32C of the payload |
// payload, a JSON object of record key -> record (null: deleted).

const (
	journalPrefix   = "sandbox.journal."
	journalMagic    = "CTJ1"
	checkpointEvery = 2 * time.Second
)

var (
	journalTable  = crc32.MakeTable(crc32.Castagnoli)
	checkpointKey = []byte("checkpoint") // in bucket meta: the last generation the database covers
)

// journalPath is the file of generation gen.
func journalPath(dir string, gen uint64) string {
	return filepath.Join(dir, journalPrefix+strconv.FormatUint(gen, 10))
}

// createJournal creates the (empty) journal of gen, its directory entry
// made durable.
func createJournal(dir string, gen uint64) (*os.File, error) {
	f, err := os.OpenFile(journalPath(dir, gen), os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	syncDir(dir)
	return f, nil
}

// encodeFrame is one journal frame holding records.
func encodeFrame(records map[string][]byte) ([]byte, error) {
	payload := make(map[string]json.RawMessage, len(records))
	for k, v := range records {
		payload[k] = v // nil encodes as null: deleted
	}
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	frame := make([]byte, 12, 12+len(body))
	copy(frame, journalMagic)
	binary.LittleEndian.PutUint32(frame[4:], uint32(len(body)))
	binary.LittleEndian.PutUint32(frame[8:], crc32.Checksum(body, journalTable))
	return append(frame, body...), nil
}

// journalGenerations lists the journals in dir, oldest first.
func journalGenerations(dir string) ([]uint64, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var gens []uint64
	for _, e := range entries {
		if rest, ok := strings.CutPrefix(e.Name(), journalPrefix); ok {
			if gen, err := strconv.ParseUint(rest, 10, 64); err == nil {
				gens = append(gens, gen)
			}
		}
	}
	slices.Sort(gens)
	return gens, nil
}

// recoverJournals folds the journals the database does not cover yet into
// it, removes every journal, and opens a fresh one for this run. scans
// are the journals as checkJournals read them, before anything was
// written.
func (st *Store) recoverJournals(scans map[uint64]journalScan) error {
	dir := filepath.Dir(st.path)
	gens := slices.Sorted(maps.Keys(scans))
	var covered uint64
	_ = st.db.View(func(tx *bolt.Tx) error {
		covered, _ = strconv.ParseUint(string(tx.Bucket(bucketMeta).Get(checkpointKey)), 10, 64)
		return nil
	})
	replayed := map[string][]byte{}
	last := covered
	for _, gen := range gens {
		if gen <= covered {
			continue
		}
		if err := applyPayloads(scans[gen].payloads, replayed); err != nil {
			return refuseStore(journalPath(dir, gen), err.Error())
		}
		last = gen
	}
	if len(replayed) > 0 {
		if err := st.putRecords(replayed, last); err != nil {
			return err
		}
	}
	for _, gen := range gens {
		_ = os.Remove(journalPath(dir, gen))
	}
	st.journalGen = last + 1
	var err error
	st.journal, err = createJournal(dir, st.journalGen)
	return err
}

// putRecords writes records into the database in one synced transaction
// that also records that journals up to gen are covered.
func (st *Store) putRecords(records map[string][]byte, gen uint64) error {
	return st.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketState)
		// In key order: bbolt inserts into a page by moving what follows,
		// so 100,000 keys in a map's order would take seconds.
		for _, k := range slices.Sorted(maps.Keys(records)) {
			v := records[k]
			var err error
			if v == nil {
				err = b.Delete([]byte(k))
			} else {
				err = b.Put([]byte(k), v)
			}
			if err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put(checkpointKey, []byte(strconv.FormatUint(gen, 10)))
	})
}

// commit makes records durable: one journal frame, written and synced.
// Call with commitMu held. After a failed write the journal may end in a
// partial frame, so every later commit fails too (the sandbox answers 500)
// rather than append behind it.
func (st *Store) commit(records map[string][]byte) error {
	if st.broken != nil {
		return st.broken
	}
	frame, err := encodeFrame(records)
	if err != nil {
		return err
	}
	if _, err := st.journal.Write(frame); err != nil {
		st.broken = fmt.Errorf("writing the journal: %w", err)
		return st.broken
	}
	if err := datasync(st.journal); err != nil {
		st.broken = fmt.Errorf("syncing the journal: %w", err)
		return st.broken
	}
	st.unflushedMu.Lock()
	for k, v := range records {
		st.unflushed[k] = v
	}
	st.unflushedMu.Unlock()
	return nil
}

// checkpointLoop moves committed records into the database until Close.
func (st *Store) checkpointLoop() {
	defer close(st.loopDone)
	tick := time.NewTicker(checkpointEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			if err := st.checkpoint(); err != nil {
				st.logCheckpoint(err)
			}
		case <-st.stop:
			return
		}
	}
}

// checkpoint writes the committed records into the database and removes
// the journal they came from. Commits go on meanwhile, into a new journal.
func (st *Store) checkpoint() error {
	st.checkpointMu.Lock()
	defer st.checkpointMu.Unlock()
	st.unflushedMu.Lock()
	waiting := len(st.unflushed)
	st.unflushedMu.Unlock()
	st.commitMu.Lock()
	broken := st.broken != nil
	st.commitMu.Unlock()
	if waiting == 0 || broken {
		return nil
	}
	dir := filepath.Dir(st.path)
	next, err := createJournal(dir, st.journalGen+1) // outside commitMu: commits do not wait for it
	if err != nil {
		return err
	}
	st.commitMu.Lock()
	st.unflushedMu.Lock()
	batch := st.unflushed
	st.unflushed = map[string][]byte{}
	st.unflushedMu.Unlock()
	old, gen := st.journal, st.journalGen
	st.journal, st.journalGen = next, gen+1
	st.commitMu.Unlock()
	old.Close()
	if err := st.putRecords(batch, gen); err != nil {
		st.unflushedMu.Lock()
		for k, v := range batch {
			if _, newer := st.unflushed[k]; !newer {
				st.unflushed[k] = v
			}
		}
		st.unflushedMu.Unlock()
		return err
	}
	return os.Remove(journalPath(dir, gen))
}

// logCheckpoint reports a failed checkpoint once per kind of failure; the
// records stay in the journal and are tried again.
func (st *Store) logCheckpoint(err error) {
	if msg := err.Error(); msg != st.lastCheckpointErr {
		st.lastCheckpointErr = msg
		slog.Error("sandbox: moving the journal into the data directory's database failed; retrying", "file", st.path, "err", err)
	}
}

// closeJournal stops the checkpoints, moves what is left into the database
// and removes the last journal.
func (st *Store) closeJournal() error {
	close(st.stop)
	<-st.loopDone
	err := st.checkpoint()
	st.commitMu.Lock()
	defer st.commitMu.Unlock()
	if st.journal != nil {
		st.journal.Close()
		st.unflushedMu.Lock()
		empty := len(st.unflushed) == 0
		st.unflushedMu.Unlock()
		if err == nil && empty && st.broken == nil {
			_ = os.Remove(journalPath(filepath.Dir(st.path), st.journalGen))
		}
	}
	return err
}
