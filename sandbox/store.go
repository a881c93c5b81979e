package sandbox

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// A data directory (cardterm sandbox --data DIR) keeps the sandbox's state
// in DIR/sandbox.db, a bbolt database. Every change is committed in one
// bbolt transaction before its answer leaves (persist.go): bbolt writes
// the changed pages, fsyncs, writes a meta page and fsyncs again, so a
// commit is all or nothing and a kill -9 at any moment leaves the last
// commit. Damage is refused at open with its byte offset: bbolt checks its
// two meta pages and tx.Check the page tree, and every record carries a
// CRC-32C (store_records.go).
//
// Bucket "meta" marks the file as ours (format, version). Bucket "state"
// holds the fixture's parts (fixture.go), one record per key:
//
//	user/<user id>                          a user, without its whitelist
//	whitelist/<user id>/<seq, 16 hex>       one whitelist entry
//	webhooks/<tenant>/<environment>         a partner's webhooks
//	consent/<tenant>/<environment>/<region> a backend's consent data
//	pin/<card id>                           a PIN set on the hosted page
//	session/<kind>/<token key>              a sign-in (fixture_sessions.go)
//
// What has no record is as seeded. A new kind of record is a key prefix,
// its decoder in recordKinds and a keep…Locked helper (persist.go).

// StoreFile is the name of the database in a data directory.
const StoreFile = "sandbox.db"

// storeVersion is the database's layout: 2 has a checksum on every record
// and no journals beside it; 1 is migrated at open (store_legacy.go).
const storeVersion = 2

var (
	bucketMeta  = []byte("meta")
	bucketState = []byte("state")
	versionKey  = []byte("version")
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

	mu     sync.Mutex // one write at a time; guards broken
	broken error      // set when a failed commit may have reached the file
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
	if err := refuseLegacyJournals(dir); err != nil {
		return nil, err
	}
	db, err := openBolt(path, false)
	var damage storeDamage
	if errors.As(err, &damage) {
		return nil, refuseDamage(path, string(damage))
	}
	if err != nil {
		return nil, err
	}
	st := &Store{db: db, path: path}
	if err := st.prepare(fresh); err != nil {
		db.Close()
		return nil, err
	}
	if fresh {
		syncDir(dir)
	}
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

// storeDamage says where a store is damaged, and how.
type storeDamage string

func (d storeDamage) Error() string { return "the file is damaged " + string(d) }

// openBolt opens the database, waiting a second for another process's
// lock. bbolt panics on some damaged files: storeDamage here. The
// freelist is synced (the default): rebuilding it on open walks every page
// in a goroutine no recover reaches.
func openBolt(path string, readOnly bool) (db *bolt.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = storeDamage(fmt.Sprintf("(%v)", r))
		}
	}()
	db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: readOnly, FreelistType: bolt.FreelistMapType})
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("%s is %w", path, ErrStoreInUse)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum), errors.Is(err, berrors.ErrVersionMismatch):
		return nil, storeDamage("at byte 0: both meta pages (pages 0 and 1) fail their checks (" + err.Error() + ")")
	case errors.As(err, new(*fs.PathError)):
		return nil, fmt.Errorf("data directory: %w", err)
	case err != nil:
		return nil, storeDamage("(" + err.Error() + ")")
	}
	return db, nil
}

// refuseStore is the message for a file the sandbox will not use.
func refuseStore(path, why string) error {
	return fmt.Errorf("%s: %s; refusing to use or overwrite it (move it away, or choose another --data directory)", path, why)
}

// refuseDamage is the message for a damaged store, where says where.
func refuseDamage(path, where string) error {
	return fmt.Errorf("%s: the file is damaged %s; refusing to use or overwrite it. `cardterm sandbox repair --data %s` copies what can be read into a fresh database and sets the file aside",
		path, where, filepath.Dir(path))
}

// errMigrate stops a read-only look at a store that must be written first.
var errMigrate = errors.New("the store needs migrating")

// prepare marks a fresh file as ours, or checks (reading only) that it is
// ours and sound; it migrates an older layout, and reads the state. A
// failure rolls back whatever it wrote.
func (st *Store) prepare(fresh bool) (err error) {
	defer func() {
		if r := recover(); r != nil { // bbolt panics on some damaged pages
			err = refuseDamage(st.path, fmt.Sprintf("(%v)", r))
		}
	}()
	load := func(tx *bolt.Tx) error {
		version, err := st.checkOurs(tx)
		if err != nil {
			return err
		}
		if version < storeVersion {
			if !tx.Writable() {
				return errMigrate
			}
			if err := migrate(tx); err != nil {
				return err
			}
		}
		f, err := readFixture(tx)
		if err != nil {
			return refuseDamage(st.path, err.Error())
		}
		if err := New(Options{}).applyFixture(f); err != nil {
			return refuseStore(st.path, "its state does not fit this sandbox ("+err.Error()+")")
		}
		st.state = f
		return nil
	}
	if fresh {
		return st.db.Update(func(tx *bolt.Tx) error {
			if err := markOurs(tx); err != nil {
				return err
			}
			return load(tx)
		})
	}
	if err = st.db.View(load); errors.Is(err, errMigrate) {
		err = st.db.Update(load)
	}
	return err
}

// checkOurs checks the meta bucket and the page tree (tx.Check) and
// returns the store's version.
func (st *Store) checkOurs(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil || string(meta.Get([]byte("format"))) != fixtureFormat {
		return 0, refuseStore(st.path, "it is a bbolt database of another program")
	}
	version, err := strconv.Atoi(string(meta.Get(versionKey)))
	if err != nil || version < 1 || version > storeVersion {
		return 0, refuseStore(st.path, fmt.Sprintf("it was written by another version of cardterm (store version %q, this one reads 1 to %d)", meta.Get(versionKey), storeVersion))
	}
	if tx.Bucket(bucketState) == nil {
		return 0, refuseDamage(st.path, "(no state bucket)")
	}
	if problems := checkPages(tx); len(problems) > 0 {
		return 0, refuseDamage(st.path, problems[0])
	}
	return version, nil
}

// markOurs writes the meta bucket and an empty state.
func markOurs(tx *bolt.Tx) error {
	meta, err := tx.CreateBucket(bucketMeta)
	if err != nil {
		return err
	}
	if err := meta.Put([]byte("format"), []byte(fixtureFormat)); err != nil {
		return err
	}
	if err := meta.Put(versionKey, []byte(strconv.Itoa(storeVersion))); err != nil {
		return err
	}
	_, err = tx.CreateBucket(bucketState)
	return err
}

// syncDir makes a directory's new entries durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Path is the database file.
func (st *Store) Path() string { return st.path }

// Close closes the database; the directory is then free for another
// process. A second Close does nothing.
func (st *Store) Close() error { return st.db.Close() }

// write commits records (nil deletes one) in one bbolt transaction, on
// disk when it returns. A failed commit is rolled back by bbolt and may be
// tried again, unless its meta page may have reached the file: bbolt then
// reads a commit it rolled back, and any later one could overwrite its
// pages, so every later write fails until the sandbox restarts.
func (st *Store) write(records map[string][]byte) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.broken != nil {
		return st.broken
	}
	txID := 0
	err := st.db.Update(func(tx *bolt.Tx) error {
		txID = tx.ID()
		return putRecords(tx.Bucket(bucketState), records)
	})
	if err != nil {
		seen := 0
		_ = st.db.View(func(tx *bolt.Tx) error { seen = tx.ID(); return nil })
		if seen == txID {
			st.broken = fmt.Errorf("%w (the sandbox takes no more changes: restart it; every change answered before is kept)", err)
			return st.broken
		}
	}
	return err
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
	st.mu.Lock()
	defer st.mu.Unlock()
	err = st.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketState); err != nil {
			return err
		}
		b, err := tx.CreateBucket(bucketState)
		if err != nil {
			return err
		}
		return putRecords(b, records)
	})
	if err == nil {
		st.state = f
	}
	return err
}

// Export writes the stored state as a fixture file (JSON, indented).
func (st *Store) Export(w io.Writer) error {
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
