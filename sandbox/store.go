package sandbox

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// A data directory (cardterm sandbox --data DIR) keeps the sandbox's state
// in DIR/sandbox.db, a bbolt database: one file, copy-on-write pages and
// two checksummed meta pages, so a commit is all or nothing and a kill -9
// at any moment leaves the last committed state. Every change is
// committed (and fsynced) before its answer leaves (persist.go).
//
// Bucket "meta" marks the file as ours (format, version). Bucket "state"
// holds the fixture's parts (fixture.go) as JSON, one record per key:
//
//	user/<user id>                         a user, without its whitelist
//	whitelist/<user id>/<seq, 16 hex>      one whitelist entry
//	webhooks/<tenant>/<environment>        a partner's webhooks
//	consent/<tenant>/<environment>/<region> a backend's consent data
//	pin/<card id>                          a PIN set on the hosted page
//
// What has no record is as seeded.

// StoreFile is the name of the database in a data directory.
const StoreFile = "sandbox.db"

var (
	bucketMeta  = []byte("meta")
	bucketState = []byte("state")
)

// ErrStoreInUse is returned when another process (a running sandbox) has
// the data directory open.
var ErrStoreInUse = errors.New("in use by another cardterm sandbox (stop it first)")

// boltMagic is the magic number of a bbolt meta page, at byte 16.
const boltMagic = 0xED0CDAED

// Store is an open data directory.
type Store struct {
	db   *bolt.DB
	path string
	// state is what the directory held when it was opened; New applies it.
	state *fixture
	// commitMu orders commits, so a later state of a record is never
	// overwritten by an earlier one; it guards journal and journalGen.
	commitMu   sync.Mutex
	journal    *os.File // the journal commits append to (journal.go)
	journalGen uint64
	broken     error // set when a journal write failed: no commit may follow

	unflushedMu sync.Mutex
	unflushed   map[string][]byte // committed to the journal, not yet in the database

	checkpointMu      sync.Mutex // one checkpoint at a time
	stop, loopDone    chan struct{}
	lastCheckpointErr string

	closeOnce sync.Once
	closeErr  error
}

// OpenStore opens (creating when absent) the data directory dir. A file
// that is not a cardterm sandbox store, or one that is damaged, is refused
// and never written to.
func OpenStore(dir string) (*Store, error) {
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("data directory %s is a file, not a directory", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	// Everything is checked, reading only, before anything is written.
	if err := checkDataDirectory(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, StoreFile)
	fresh, err := checkStoreHeader(path)
	if err != nil {
		return nil, err
	}
	scans, err := checkJournals(dir)
	if err != nil {
		return nil, err
	}
	db, err := openBolt(path)
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("%s is %w", path, ErrStoreInUse)
	case err != nil:
		return nil, refuseStore(path, err.Error())
	}
	st := &Store{db: db, path: path, unflushed: map[string][]byte{}, stop: make(chan struct{}), loopDone: make(chan struct{})}
	if err := st.prepare(fresh, scans); err != nil {
		if st.journal != nil { // this run's, still empty
			st.journal.Close()
			_ = os.Remove(st.journal.Name())
		}
		db.Close()
		return nil, err
	}
	if fresh {
		syncDir(dir)
	}
	go st.checkpointLoop()
	return st, nil
}

// checkStoreHeader refuses a file that does not start like a bbolt
// database, before bbolt opens it (bbolt would initialise an empty file,
// and a file of another program must stay untouched). fresh is true when
// there is no file. An empty file is refused: it is no store, and taking
// it for a fresh one would start from the seed as if nothing was kept.
func checkStoreHeader(path string) (fresh bool, err error) {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("data directory: %w", err)
	case info.Mode()&os.ModeSymlink != 0:
		return false, refuseStore(path, "it is a symbolic link (the store must be a file of the data directory itself)")
	case !info.Mode().IsRegular():
		return false, refuseStore(path, "it is not a regular file")
	case info.Size() == 0:
		return false, refuseStore(path, "it is empty (0 bytes): no store, and not one to start afresh over")
	}
	f, err := os.Open(path)
	if err != nil {
		return false, fmt.Errorf("data directory: %w", err)
	}
	defer f.Close()
	var head [20]byte
	_, err = io.ReadFull(f, head[:])
	switch {
	case err != nil:
		return false, refuseStore(path, "the file is too short to be a sandbox store")
	case binary.LittleEndian.Uint32(head[16:]) != boltMagic:
		return false, refuseStore(path, "the file is not a cardterm sandbox store")
	}
	return false, nil
}

// openBolt opens the database; bbolt panics on some damaged files, which
// is an error here. The freelist is synced (the default): rebuilding it on
// open walks every page in a goroutine no recover reaches.
func openBolt(path string) (db *bolt.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the file is damaged (%v)", r)
		}
	}()
	return bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, FreelistType: bolt.FreelistMapType})
}

// refuseStore is the message for a file the sandbox will not use.
func refuseStore(path, why string) error {
	return fmt.Errorf("%s: %s; refusing to use or overwrite it (move it away, or choose another --data directory)", path, why)
}

// prepare marks a fresh file as ours, or checks (reading only) that it
// is ours and sound, and reads the state it holds.
func (st *Store) prepare(fresh bool, scans map[uint64]journalScan) (err error) {
	defer func() {
		if r := recover(); r != nil { // bbolt panics on some damaged pages
			err = refuseStore(st.path, fmt.Sprintf("the file is damaged (%v)", r))
		}
	}()
	if fresh {
		if err := st.db.Update(st.markOurs); err != nil {
			return err
		}
	}
	err = st.db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil || string(meta.Get([]byte("format"))) != fixtureFormat {
			return refuseStore(st.path, "it is a bbolt database of another program")
		}
		if got := string(meta.Get([]byte("version"))); got != fmt.Sprint(fixtureVersion) {
			return refuseStore(st.path, fmt.Sprintf("it was written by another version of cardterm (store version %s, this one reads %d)", got, fixtureVersion))
		}
		if tx.Bucket(bucketState) == nil {
			return refuseStore(st.path, "the file is damaged (no state bucket)")
		}
		for problem := range tx.Check() {
			return refuseStore(st.path, "the file is damaged ("+problem.Error()+")")
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := st.recoverJournals(scans); err != nil {
		return err
	}
	return st.db.View(func(tx *bolt.Tx) error {
		f, err := readFixture(tx)
		if err != nil {
			return refuseStore(st.path, "the file is damaged ("+err.Error()+")")
		}
		if err := New(Options{}).applyFixture(f); err != nil {
			return refuseStore(st.path, "its state does not fit this sandbox ("+err.Error()+")")
		}
		st.state = f
		return nil
	})
}

// markOurs writes the meta bucket and an empty state.
func (st *Store) markOurs(tx *bolt.Tx) error {
	meta, err := tx.CreateBucket(bucketMeta)
	if err != nil {
		return err
	}
	if err := meta.Put([]byte("format"), []byte(fixtureFormat)); err != nil {
		return err
	}
	if err := meta.Put([]byte("version"), []byte(fmt.Sprint(fixtureVersion))); err != nil {
		return err
	}
	_, err = tx.CreateBucket(bucketState)
	return err
}

// syncDir makes a new file's directory entry durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Path is the database file.
func (st *Store) Path() string { return st.path }

// Close moves what the journal holds into the database and closes it; the
// directory is then free for another process. A second Close does nothing.
func (st *Store) Close() error {
	st.closeOnce.Do(func() {
		st.closeErr = st.closeJournal()
		if err := st.db.Close(); st.closeErr == nil {
			st.closeErr = err
		}
	})
	return st.closeErr
}

// Reset forgets every change: the sandbox starts from its seed again.
func (st *Store) Reset() error {
	return st.replace(&fixture{Format: fixtureFormat, Version: fixtureVersion})
}

// replace makes f the whole stored state, in one transaction.
func (st *Store) replace(f *fixture) error {
	records, err := fixtureRecords(f)
	if err != nil {
		return err
	}
	if err := st.checkpoint(); err != nil {
		return err
	}
	st.checkpointMu.Lock()
	defer st.checkpointMu.Unlock()
	st.commitMu.Lock()
	defer st.commitMu.Unlock()
	err = st.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketState); err != nil {
			return err
		}
		b, err := tx.CreateBucket(bucketState)
		if err != nil {
			return err
		}
		for _, k := range slices.Sorted(maps.Keys(records)) { // in order: see putRecords
			if err := b.Put([]byte(k), records[k]); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		st.state = f
	}
	return err
}

// Export writes the stored state as a fixture file (JSON, indented).
func (st *Store) Export(w io.Writer) error {
	if err := st.checkpoint(); err != nil {
		return err
	}
	var f *fixture
	err := st.db.View(func(tx *bolt.Tx) error {
		var err error
		f, err = readFixture(tx)
		return err
	})
	if err != nil {
		return err
	}
	f.Sessions = nil // a fixture holds no sign-in
	return writeFixture(w, f)
}

// Import checks a fixture file (name is for messages) and makes it the
// stored state; a bad file changes nothing and the error names the path
// and the reason.
func (st *Store) Import(r io.Reader, name string) error {
	f, err := decodeFixture(r)
	if err == nil {
		err = New(Options{}).applyFixture(f)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return st.replace(f)
}

// readFixture reads the state bucket into a fixture, each user's
// whitelist entries in creation order.
func readFixture(tx *bolt.Tx) (*fixture, error) {
	f := &fixture{Format: fixtureFormat, Version: fixtureVersion,
		Users: []fixtureUser{}, Webhooks: []fixturePartner{}, Consent: []fixtureConsent{}, PINs: []fixturePIN{}}
	users := map[string]int{}
	var entries [][2][]byte
	err := tx.Bucket(bucketState).ForEach(func(k, v []byte) error {
		key := string(k)
		var err error
		switch kind, _, _ := strings.Cut(key, "/"); kind {
		case "user":
			var u fixtureUser
			if err = strictJSON(v, &u); err == nil {
				users[u.ID] = len(f.Users)
				f.Users = append(f.Users, u)
			}
		case "whitelist":
			entries = append(entries, [2][]byte{k, v})
		case "webhooks":
			var p fixturePartner
			if err = strictJSON(v, &p); err == nil {
				f.Webhooks = append(f.Webhooks, p)
			}
		case "consent":
			var c fixtureConsent
			if err = strictJSON(v, &c); err == nil {
				f.Consent = append(f.Consent, c)
			}
		case "pin":
			var p fixturePIN
			if err = strictJSON(v, &p); err == nil {
				f.PINs = append(f.PINs, p)
			}
		case "session":
			var sess fixtureSession
			if err = strictJSON(v, &sess); err == nil {
				f.Sessions = append(f.Sessions, sess)
			}
		default:
			err = errors.New("unknown record")
		}
		if err != nil {
			return fmt.Errorf("record %q: %v", key, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, kv := range entries { // keys sort by user, then seq
		parts := strings.Split(string(kv[0]), "/")
		i, ok := users[parts[1]]
		if len(parts) != 3 || !ok || f.Users[i].Wallets == nil {
			return nil, fmt.Errorf("record %q: a whitelist entry without its user's wallets", kv[0])
		}
		var e whitelistRecord
		if err := strictJSON(kv[1], &e); err != nil {
			return nil, fmt.Errorf("record %q: %v", kv[0], err)
		}
		f.Users[i].Wallets.Whitelist = append(f.Users[i].Wallets.Whitelist, &e)
	}
	return f, nil
}

// strictJSON decodes one record, refusing unknown members.
func strictJSON(data []byte, v any) error {
	d := decoderOf(bytes.NewReader(data))
	return d.Decode(v)
}
