package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// RepairReport says what a repair (`cardterm sandbox repair`) found, kept
// and set aside.
type RepairReport struct {
	Dir    string
	Damage []string // what is damaged, and where
	Lost   []string // what could not be kept, and why
	Kept   int      // records in the repaired database
	Folder string   // holds the damaged file and REPORT.txt; "" when nothing was damaged
}

// String is the report as the command prints it and REPORT.txt holds it.
func (r RepairReport) String() string {
	if r.Folder == "" {
		return fmt.Sprintf("Nothing to repair in %s: %s passes bbolt's consistency check and every record its checksum.\n", r.Dir, StoreFile)
	}
	var b strings.Builder
	for _, line := range r.Damage {
		fmt.Fprintf(&b, "damaged   %s\n", line)
	}
	for _, line := range r.Lost {
		fmt.Fprintf(&b, "lost      %s\n", line)
	}
	path := filepath.Join(r.Dir, StoreFile)
	fmt.Fprintf(&b, "kept      %d records, in a fresh %s\nset aside %s as it was, now %s\nThe sandbox now starts from what was kept.\n",
		r.Kept, path, path, filepath.Join(r.Folder, StoreFile))
	return b.String()
}

// Repair copies what can be read of dir's store into a fresh one and sets
// the damaged file aside; with nothing damaged it changes nothing. The
// directory must pass the start's checks, and no sandbox may have it open.
func Repair(dir string, now time.Time) (RepairReport, error) {
	report := RepairReport{Dir: filepath.Clean(dir)}
	path, fresh, err := checkDataDirectory(dir)
	if err == nil && fresh {
		err = fmt.Errorf("%s: no store to repair (a sandbox creates it when it first starts)", path)
	}
	if err != nil {
		return report, err
	}
	records := map[string][]byte{}
	db, err := openBolt(path, true) // held open while repairing: no sandbox starts meanwhile
	var damage storeDamage
	switch {
	case errors.As(err, &damage):
		report.Damage = append(report.Damage, path+": "+damage.where)
	case err != nil:
		return report, err
	default:
		defer db.Close()
		if err := db.View(func(tx *bolt.Tx) error { return salvage(tx, records, &report) }); err != nil {
			report.Damage = append(report.Damage, path+": "+err.Error())
		}
	}
	if len(report.Damage) == 0 && len(report.Lost) == 0 {
		return report, nil
	}
	f := keepDecodable(records, &report)
	if err := New(Options{}).applyFixture(f); err != nil {
		return report, fmt.Errorf("what could be read of %s does not fit this sandbox (%v); nothing was changed", path, err)
	}
	// Written as this version writes a fixture: an older store's history
	// inside its partner's record comes out apart.
	if records, err = fixtureRecords(f); err != nil {
		return report, err
	}
	report.Kept = len(records)
	return report, replaceStore(dir, now, records, &report)
}

// salvage reads every record whose checksum holds into records, and notes
// the damage it meets. A damaged page may stop a walk, with a panic or a
// memory fault: the walk then goes on from the last record backwards.
func salvage(tx *bolt.Tx, records map[string][]byte, report *RepairReport) (err error) {
	defer recoverInto(&err)
	for _, problem := range checkPages(tx) {
		report.Damage = append(report.Damage, tx.DB().Path()+": "+problem)
	}
	state, meta := tx.Bucket(bucketState), tx.Bucket(bucketMeta)
	if state == nil || meta == nil {
		return errors.New("the meta or state bucket cannot be read")
	}
	sealed := string(meta.Get(versionKey)) != "1"
	keep := func(k, v []byte) {
		data, err := v, error(nil)
		if sealed {
			data, err = unsealRecord(k, v)
		}
		if err != nil {
			report.Lost = append(report.Lost, fmt.Sprintf("record %q %s: %v", k, whereIs(tx, v), err))
		} else {
			records[string(k)] = bytes.Clone(data)
		}
	}
	if last, err := walkRecords(state.Cursor(), "", keep); err != nil {
		first, err := walkRecords(state.Cursor(), last, keep)
		report.Lost = append(report.Lost, fmt.Sprintf("the records after %q and before %q, if any (%v)", last, first, err))
		return fmt.Errorf("reading the records stopped after %q (%v)", last, err)
	}
	return nil
}

// recoverInto turns a panic (bbolt's on a damaged page) into *err.
func recoverInto(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%v", r)
	}
}

// walkRecords visits a bucket's records forward from the first, or when
// after is given backward from the last down to after. at is the last key
// visited; err says why a damaged page stopped the walk.
func walkRecords(c *bolt.Cursor, after string, visit func(k, v []byte)) (at string, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer recoverInto(&err)
	first, next := c.First, c.Next
	if after != "" {
		first, next = c.Last, c.Prev
	}
	for k, v := first(); k != nil && (after == "" || string(k) > after); k, v = next() {
		if v != nil { // nil: a nested bucket, none of ours
			visit(k, v)
		}
		at = string(k)
	}
	return at, nil
}

// keepDecodable drops the records whose JSON does not decode, noting them
// as lost, and returns the fixture the rest make.
func keepDecodable(records map[string][]byte, report *RepairReport) *fixture {
	f := newFixture()
	for _, k := range slices.Sorted(maps.Keys(records)) {
		if err := decodeRecord(f, k, records[k]); err != nil {
			report.Lost = append(report.Lost, fmt.Sprintf("record %q: %v", k, err))
			delete(records, k)
		}
	}
	return f
}

// replaceStore links the damaged file into the set-aside folder, writes
// records into a fresh database there and renames it into the damaged
// one's place: a crash leaves one or the other.
func replaceStore(dir string, now time.Time, records map[string][]byte, report *RepairReport) error {
	report.Folder = filepath.Join(dir, SetAsideDir, now.UTC().Format("20060102T150405Z"))
	path, repaired := filepath.Join(dir, StoreFile), filepath.Join(report.Folder, "repaired.db")
	if err := os.MkdirAll(report.Folder, 0o700); err != nil {
		return err
	}
	if err := os.Link(path, filepath.Join(report.Folder, StoreFile)); err != nil {
		return fmt.Errorf("setting %s aside: %w", path, err)
	}
	db, err := bolt.Open(repaired, 0o600, nil)
	if err != nil {
		return err
	}
	err = db.Update(func(tx *bolt.Tx) error { return markOurs(tx, records) })
	if err = errors.Join(err, db.Close()); err != nil {
		return err
	}
	if err := os.Rename(repaired, path); err != nil {
		return err
	}
	err = os.WriteFile(filepath.Join(report.Folder, "REPORT.txt"), []byte(report.String()), 0o600)
	syncDir(dir)
	syncDir(report.Folder)
	return err
}
