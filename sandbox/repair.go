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
	"strconv"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Repair (`cardterm sandbox repair --data DIR`) mends what the start
// refuses as damage. It reads what it can: bbolt's tx.Check lists the
// damaged pages, every record is read and its checksum checked (a walk a
// damaged page stops goes on from the other end), and the sound frames of
// an older cardterm's journals are folded on top. What was read goes into
// a fresh database, which replaces DIR/sandbox.db; the file as it was and
// the journals move to DIR/set-aside/<time>/ with REPORT.txt. Nothing is
// deleted. The directory must pass the start's own checks (owner, modes,
// foreign files), and no sandbox may have it open.

// RepairReport says what a repair found, kept and set aside.
type RepairReport struct {
	Dir    string
	Damage []string // what is damaged, and where
	Lost   []string // what could not be kept, and why
	Folded []string // journals of an older cardterm folded in
	Kept   int      // records in the repaired database
	// Folder holds what was set aside and REPORT.txt; "" when nothing was.
	Folder   string
	SetAside []string
}

// String is the report as the command prints it and REPORT.txt holds it.
func (r RepairReport) String() string {
	if r.Folder == "" {
		return fmt.Sprintf("Nothing to repair in %s: %s passes bbolt's consistency check, every record its checksum, and every journal frame is sound.\n", r.Dir, StoreFile)
	}
	var b strings.Builder
	for _, lines := range []struct {
		label string
		list  []string
	}{{"damaged", r.Damage}, {"lost", r.Lost}, {"folded", r.Folded}} {
		for _, line := range lines.list {
			fmt.Fprintf(&b, "%-9s %s\n", lines.label, line)
		}
	}
	fmt.Fprintf(&b, "kept      %d records, in a fresh %s\n", r.Kept, filepath.Join(r.Dir, StoreFile))
	for _, line := range r.SetAside {
		fmt.Fprintf(&b, "set aside %s\n", line)
	}
	fmt.Fprintf(&b, "What was set aside is in %s; the sandbox now starts from what was kept.\n", r.Folder)
	return b.String()
}

// Repair copies what can be read of dir's store into a fresh one and sets
// the damaged files aside; with nothing damaged it changes nothing.
func Repair(dir string, now time.Time) (RepairReport, error) {
	report := RepairReport{Dir: filepath.Clean(dir)}
	if err := checkDataDirectory(dir); err != nil {
		return report, err
	}
	path := filepath.Join(dir, StoreFile)
	fresh, err := checkStoreHeader(path)
	if err != nil {
		return report, err
	}
	journals, err := readLegacyJournals(dir)
	if err != nil {
		return report, err
	}
	records := map[string][]byte{}
	var covered uint64
	if !fresh {
		// Held open while repairing: a sandbox cannot start meanwhile.
		db, err := openBolt(path, true)
		var damage storeDamage
		switch {
		case errors.As(err, &damage):
			report.Damage = append(report.Damage, path+": "+string(damage))
		case err != nil:
			return report, err
		default:
			defer db.Close()
			covered = salvage(db, records, &report)
		}
	}
	for _, j := range journals {
		if j.damage != "" {
			report.Damage = append(report.Damage, j.path+": "+j.damage)
			report.Lost = append(report.Lost, j.path+": the frames from the damage on, and the journals after it (they follow a damaged frame)")
		}
	}
	if len(report.Damage) == 0 && len(report.Lost) == 0 {
		return report, nil
	}
	for _, j := range journals {
		if j.gen > covered {
			frames := fmt.Sprintf("%d sound frames", len(j.payloads))
			if len(j.payloads) == 1 {
				frames = "1 sound frame"
			}
			report.Folded = append(report.Folded, fmt.Sprintf("%s: %s (a journal of an older cardterm)", j.path, frames))
		}
	}
	if err := foldJournals(journals, covered, records); err != nil {
		return report, err
	}
	if err := New(Options{}).applyFixture(keepDecodable(records, &report)); err != nil {
		return report, fmt.Errorf("what could be read of %s does not fit this sandbox (%v); nothing was changed", report.Dir, err)
	}
	report.Kept = len(records)
	return report, replaceStore(dir, now, records, journals, !fresh, &report)
}

// salvage reads every record it can into records (checksums checked) and
// notes the damage it meets; it returns the last journal generation the
// store covers. A damaged page may stop a walk, with a panic or a memory
// fault: the walk then goes on from the last record backwards.
func salvage(db *bolt.DB, records map[string][]byte, report *RepairReport) (covered uint64) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	path := db.Path()
	err := db.View(func(tx *bolt.Tx) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%v", r)
			}
		}()
		for _, problem := range checkPages(tx) {
			report.Damage = append(report.Damage, path+": "+problem)
		}
		meta, state := tx.Bucket(bucketMeta), tx.Bucket(bucketState)
		if meta == nil || state == nil {
			return errors.New("the meta or state bucket cannot be read")
		}
		covered, _ = strconv.ParseUint(string(meta.Get(checkpointKey)), 10, 64)
		sealed := string(meta.Get(versionKey)) != "1"
		keep := func(k, v []byte) {
			data, err := v, error(nil)
			if sealed {
				data, err = unsealRecord(k, v)
			}
			if err != nil {
				where := whereIs(tx, v)
				if where != "" {
					where = " " + where
				}
				report.Lost = append(report.Lost, fmt.Sprintf("record %q%s: %v", k, where, err))
				return
			}
			records[string(k)] = bytes.Clone(data)
		}
		last, err := walkRecords(state.Cursor(), "", keep)
		if err != nil {
			report.Damage = append(report.Damage, fmt.Sprintf("%s: reading the records stopped after %q (%v)", path, last, err))
			first, err := walkRecords(state.Cursor(), last, keep)
			report.Lost = append(report.Lost, fmt.Sprintf("the records after %q and before %q, if any (%v)", last, first, err))
		}
		return nil
	})
	if err != nil {
		report.Damage = append(report.Damage, fmt.Sprintf("%s: %v", path, err))
	}
	return covered
}

// walkRecords visits the records of a cursor's bucket: forward from the
// first when after is "", else backward from the last down to after. at
// is the last key visited; err says why a damaged page stopped the walk.
func walkRecords(c *bolt.Cursor, after string, visit func(k, v []byte)) (at string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
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

// keepDecodable drops the records whose JSON does not decode (noting
// them as lost) and those a journal deleted, and returns the fixture the
// rest make.
func keepDecodable(records map[string][]byte, report *RepairReport) *fixture {
	f := newFixture()
	for _, k := range slices.Sorted(maps.Keys(records)) {
		if records[k] == nil {
			delete(records, k)
		} else if err := decodeRecord(f, k, records[k]); err != nil {
			report.Lost = append(report.Lost, fmt.Sprintf("record %q: %v", k, err))
			delete(records, k)
		}
	}
	return f
}

// replaceStore writes records into a fresh database, links the damaged
// one into the set-aside folder, puts the fresh one in its place (one
// rename: a crash leaves one or the other), then moves the journals.
func replaceStore(dir string, now time.Time, records map[string][]byte, journals []legacyJournal, hadStore bool, report *RepairReport) error {
	folder := filepath.Join(dir, SetAsideDir, now.UTC().Format("20060102T150405Z"))
	if err := os.MkdirAll(filepath.Dir(folder), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(folder, 0o700); err != nil {
		return fmt.Errorf("setting the damaged files aside: %w", err)
	}
	report.Folder = folder
	repaired := filepath.Join(folder, "repaired.db")
	var covered uint64
	if len(journals) > 0 { // should moving them fail, the next open skips them
		covered = journals[len(journals)-1].gen
	}
	if err := writeFreshStore(repaired, records, covered); err != nil {
		return err
	}
	path := filepath.Join(dir, StoreFile)
	if hadStore {
		if err := os.Link(path, filepath.Join(folder, StoreFile)); err != nil {
			return fmt.Errorf("setting %s aside: %w", path, err)
		}
		report.SetAside = append(report.SetAside, fmt.Sprintf("%s as it was, now %s", path, filepath.Join(folder, StoreFile)))
	}
	if err := os.Rename(repaired, path); err != nil {
		return err
	}
	for _, j := range journals {
		to := filepath.Join(folder, filepath.Base(j.path))
		if err := os.Rename(j.path, to); err != nil {
			return fmt.Errorf("setting %s aside: %w", j.path, err)
		}
		report.SetAside = append(report.SetAside, fmt.Sprintf("%s, now %s", j.path, to))
	}
	err := os.WriteFile(filepath.Join(folder, "REPORT.txt"), []byte(report.String()), 0o600)
	syncDir(dir)
	syncDir(folder)
	return err
}

// writeFreshStore creates a store at path holding records.
func writeFreshStore(path string, records map[string][]byte, covered uint64) error {
	db, err := bolt.Open(path, 0o600, &bolt.Options{FreelistType: bolt.FreelistMapType})
	if err != nil {
		return err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if err := markOurs(tx); err != nil {
			return err
		}
		if covered > 0 {
			if err := tx.Bucket(bucketMeta).Put(checkpointKey, []byte(strconv.FormatUint(covered, 10))); err != nil {
				return err
			}
		}
		return putRecords(tx.Bucket(bucketState), records)
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}
