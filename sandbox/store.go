package sandbox

import (
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
// in DIR/sandbox.db, a bbolt database: bucket "meta" marks it as ours,
// bucket "state" holds a checksummed record per changed part of the sandbox
// (store_records.go); what has no record is as seeded.

// StoreFile is the name of the database in a data directory.
const StoreFile = "sandbox.db"

// storeVersion 3 keeps a partner's events and deliveries as records of
// their own; 2 (inside the partner's record) and 1 (no checksums) are
// migrated at open (store_legacy.go).
const storeVersion = 3

var (
	bucketMeta  = []byte("meta")
	bucketState = []byte("state")
	versionKey  = []byte("version")
	formatKey   = []byte("format")
)

// ErrStoreInUse is returned when a running sandbox has the directory open.
var ErrStoreInUse = errors.New("in use by another cardterm sandbox (stop it first)")

// Store is an open data directory.
type Store struct {
	db    *bolt.DB
	state *fixture // what the directory held when opened; New applies it

	commitMu sync.Mutex // one commit at a time, in order; guards broken
	broken   error      // set when a failed commit may have reached the file

	pendingMu sync.Mutex
	pending   map[string][]byte // record key -> JSON; nil deletes the record
}

// OpenStore opens (creating when absent) the data directory dir. A file
// that is not a sandbox store, or a damaged one, is refused and left as is.
func OpenStore(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	path, fresh, err := checkDataDirectory(dir)
	if err != nil {
		return nil, err
	}
	db, err := openBolt(path, false)
	if err != nil {
		return nil, err
	}
	st := &Store{db: db, pending: map[string][]byte{}}
	if err := st.prepare(fresh); err != nil {
		db.Close()
		return nil, err
	}
	if fresh {
		syncDir(dir)
	}
	return st, nil
}

// storeDamage says where a store is damaged and how: a start refuses it,
// repair reports it.
type storeDamage struct{ path, where string }

func (d storeDamage) Error() string {
	return fmt.Sprintf("%s: the file is damaged %s; refusing to use or overwrite it. `cardterm sandbox repair --data %s` copies what can be read into a fresh database and sets the file aside",
		d.path, d.where, filepath.Dir(d.path))
}

// recoverDamage turns bbolt's panic on a damaged page into a storeDamage.
func recoverDamage(path string, err *error) {
	if r := recover(); r != nil {
		*err = storeDamage{path, fmt.Sprintf("(%v)", r)}
	}
}

// refuseStore is the message for a file the sandbox will not use.
func refuseStore(path, why string) error {
	return fmt.Errorf("%s: %s; refusing to use or overwrite it (move it away, or choose another --data directory)", path, why)
}

// openBolt opens the database, waiting a second for another process's
// lock. The freelist stays synced (the default): rebuilding it walks every
// page in a goroutine where a panic on a damaged page is not recovered.
func openBolt(path string, readOnly bool) (db *bolt.DB, err error) {
	defer recoverDamage(path, &err)
	db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: readOnly, FreelistType: bolt.FreelistMapType})
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("%s is %w", path, ErrStoreInUse)
	case errors.As(err, new(*fs.PathError)):
		return nil, fmt.Errorf("data directory: %w", err)
	case errors.Is(err, berrors.ErrInvalid): // neither meta page has bbolt's magic number
		return nil, refuseStore(path, "the file is not a cardterm sandbox store")
	case errors.Is(err, berrors.ErrChecksum), errors.Is(err, berrors.ErrVersionMismatch):
		return nil, storeDamage{path, "at byte 0: both meta pages (pages 0 and 1) fail their checks (" + err.Error() + ")"}
	case err != nil:
		return nil, storeDamage{path, "(" + err.Error() + ")"}
	}
	return db, nil
}

// prepare checks the store and reads its state in one transaction, which
// commits only to mark a fresh file ours or to migrate an older one.
func (st *Store) prepare(fresh bool) (err error) {
	path := st.Path()
	defer recoverDamage(path, &err)
	tx, err := st.db.Begin(true)
	if err != nil {
		return err
	}
	defer tx.Rollback() // after a commit, does nothing
	if fresh {
		if err := markOurs(tx, nil); err != nil {
			return err
		}
	}
	meta := tx.Bucket(bucketMeta)
	if meta == nil || string(meta.Get(formatKey)) != fixtureFormat {
		return refuseStore(path, "it is a bbolt database of another program")
	}
	version, err := strconv.Atoi(string(meta.Get(versionKey)))
	if err != nil || version < 1 || version > storeVersion {
		return refuseStore(path, fmt.Sprintf("it was written by another version of cardterm (store version %q, this one reads 1 to %d)", meta.Get(versionKey), storeVersion))
	}
	if problems := checkPages(tx); len(problems) > 0 {
		return storeDamage{path, problems[0]}
	}
	if version < storeVersion {
		if err := migrate(tx, version); err != nil {
			return err
		}
	}
	if st.state, err = readFixture(tx); err != nil {
		return err
	}
	if err := New(Options{}).applyFixture(st.state); err != nil {
		return refuseStore(path, "its state does not fit this sandbox ("+err.Error()+")")
	}
	if fresh || version < storeVersion {
		return tx.Commit()
	}
	return nil
}

// markOurs writes the meta bucket and a state bucket of records, in place
// of any.
func markOurs(tx *bolt.Tx, records map[string][]byte) error {
	if err := tx.DeleteBucket(bucketState); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
		return err
	}
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	state, err := tx.CreateBucket(bucketState)
	if err != nil {
		return err
	}
	if err := errors.Join(meta.Put(formatKey, []byte(fixtureFormat)), meta.Put(versionKey, []byte(strconv.Itoa(storeVersion)))); err != nil {
		return err
	}
	return putRecords(state, records)
}

// syncDir makes a directory's new entries durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Path is the database file.
func (st *Store) Path() string { return st.db.Path() }

// Close frees the directory for another process; a second Close does nothing.
func (st *Store) Close() error { return st.db.Close() }

// keep notes the new state of a record (nil deletes it) for the next commit.
func (st *Store) keep(key string, data []byte) {
	st.pendingMu.Lock()
	st.pending[key] = data
	st.pendingMu.Unlock()
}

// commit writes every record kept since the last commit, in one
// transaction: while one commit syncs, the next gathers what concurrent
// requests kept meanwhile. (db.Batch would wait up to 10 ms for company.)
// A failed commit leaves its records pending, unless newer ones replaced
// them; but should its meta page have reached the file, bbolt now reads
// that commit, which a later one could overwrite: no more are taken.
func (st *Store) commit() error {
	st.commitMu.Lock()
	defer st.commitMu.Unlock()
	if st.broken != nil {
		return st.broken
	}
	st.pendingMu.Lock()
	batch := st.pending
	if len(batch) == 0 { // batch is still the map keep writes to
		st.pendingMu.Unlock()
		return nil
	}
	st.pending = map[string][]byte{}
	st.pendingMu.Unlock()
	txID, seen := 0, 0
	err := st.db.Update(func(tx *bolt.Tx) error { txID = tx.ID(); return putRecords(tx.Bucket(bucketState), batch) })
	if err == nil {
		return nil
	}
	_ = st.db.View(func(tx *bolt.Tx) error { seen = tx.ID(); return nil })
	if seen == txID {
		st.broken = fmt.Errorf("%w (the sandbox takes no more changes: restart it; every change answered before is kept)", err)
		return st.broken
	}
	st.pendingMu.Lock()
	for k, v := range batch {
		if _, newer := st.pending[k]; !newer {
			st.pending[k] = v
		}
	}
	st.pendingMu.Unlock()
	return err
}

// Reset forgets every change: the sandbox starts from its seed again.
func (st *Store) Reset() error {
	return st.replace(&fixture{Format: fixtureFormat, Version: fixtureVersion})
}

// replace makes f the whole stored state.
func (st *Store) replace(f *fixture) error {
	records, err := fixtureRecords(f)
	if err != nil {
		return err
	}
	st.commitMu.Lock()
	defer st.commitMu.Unlock()
	if err = st.db.Update(func(tx *bolt.Tx) error { return markOurs(tx, records) }); err == nil {
		st.state = f
	}
	return err
}

// Export writes the stored state as a fixture file (JSON, indented).
func (st *Store) Export(w io.Writer) error {
	var f *fixture
	err := st.db.View(func(tx *bolt.Tx) (err error) { f, err = readFixture(tx); return err })
	if err != nil {
		return err
	}
	f.Sessions = nil // a fixture holds no sign-in
	return writeFixture(w, f)
}

// Import checks a fixture file (name is for messages) and makes it the
// stored state; a bad file changes nothing, and the error says where.
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
