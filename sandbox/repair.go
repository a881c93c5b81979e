package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Repair (`cardterm sandbox repair --data DIR`) mends what the start
// refuses in the journals: it keeps every sound frame before the first
// damage and sets the rest aside in DIR/set-aside/<time>/ (the damaged
// journal's tail from the damage on, and every later journal whole), with
// a report there and on the command line. Nothing is deleted. As etcd
// does for a torn tail, but for damage anywhere: the frames after a
// damaged one are set aside too, since a store must be a prefix of what
// was acknowledged, not a selection.

// RepairReport says what a repair kept and set aside.
type RepairReport struct {
	Dir string
	// Kept lists the journals kept, with their sound frames.
	Kept []RepairKept
	// SetAside lists what was moved to Folder, and why.
	SetAside []RepairSetAside
	// Folder holds what was set aside and REPORT.txt; "" when nothing was.
	Folder string
}

// RepairKept is a journal kept, up to Bytes.
type RepairKept struct {
	File   string
	Frames int
	Bytes  int64
}

// RepairSetAside is a part of a journal set aside: its bytes from Offset.
type RepairSetAside struct {
	File   string
	Offset int64
	Bytes  int64
	Why    string
	To     string // where it is now
}

// String is the report as the command prints it and REPORT.txt holds it.
func (r RepairReport) String() string {
	var b strings.Builder
	if len(r.SetAside) == 0 {
		fmt.Fprintf(&b, "Nothing to repair in %s: every journal frame is sound.\n", r.Dir)
	}
	for _, k := range r.Kept {
		fmt.Fprintf(&b, "kept      %s: %d frames, %d bytes\n", k.File, k.Frames, k.Bytes)
	}
	for _, s := range r.SetAside {
		fmt.Fprintf(&b, "set aside %s from byte %d (%d bytes): %s\n          now %s\n", s.File, s.Offset, s.Bytes, s.Why, s.To)
	}
	if r.Folder != "" {
		fmt.Fprintf(&b, "What was set aside is in %s; the sandbox now starts from the frames kept.\n", r.Folder)
	}
	return b.String()
}

// Repair keeps the sound prefix of dir's journals and sets the rest
// aside. The directory must pass the start's own checks (owner, modes,
// foreign files), and no sandbox may have it open. The database is not
// mended: a damaged one is refused with the reason.
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
	if !fresh {
		// Held open while repairing: a sandbox cannot start meanwhile.
		db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
		if errors.Is(err, berrors.ErrTimeout) {
			return report, fmt.Errorf("%s is %w", path, ErrStoreInUse)
		}
		if err != nil {
			return report, refuseStore(path, "the database is damaged ("+err.Error()+"); repair mends journals only")
		}
		defer db.Close()
	}
	gens, err := journalGenerations(dir)
	if err != nil {
		return report, err
	}
	var plan []RepairSetAside
	damaged := false
	for _, gen := range gens {
		file := journalPath(dir, gen)
		data, err := os.ReadFile(file)
		if err != nil {
			return report, err
		}
		if damaged {
			plan = append(plan, RepairSetAside{File: file, Offset: 0, Bytes: int64(len(data)), Why: "it follows a damaged frame"})
			continue
		}
		scan := scanJournal(data)
		if scan.good > 0 || scan.damage == nil {
			report.Kept = append(report.Kept, RepairKept{File: file, Frames: len(scan.payloads), Bytes: scan.good})
		}
		if d := scan.damage; d != nil {
			damaged = true
			plan = append(plan, RepairSetAside{File: file, Offset: d.offset, Bytes: int64(len(data)) - d.offset,
				Why: fmt.Sprintf("frame %d at byte %d: %s", d.frame, d.offset, d.why)})
		}
	}
	if len(plan) == 0 {
		return report, nil
	}
	report.Folder = filepath.Join(dir, SetAsideDir, now.UTC().Format("20060102T150405Z"))
	if err := os.MkdirAll(report.Folder, 0o700); err != nil {
		return report, err
	}
	for _, part := range plan {
		if part.To, err = setAside(part, report.Folder); err != nil {
			return report, fmt.Errorf("setting %s aside: %w", part.File, err)
		}
		report.SetAside = append(report.SetAside, part)
	}
	syncDir(dir)
	if err := os.WriteFile(filepath.Join(report.Folder, "REPORT.txt"), []byte(report.String()), 0o600); err != nil {
		return report, err
	}
	syncDir(report.Folder)
	return report, nil
}

// setAside moves a journal's bytes from part.Offset into folder: the
// whole file when from its start, else a copy of its tail (synced) and
// then the journal cut to what is kept.
func setAside(part RepairSetAside, folder string) (string, error) {
	name := filepath.Base(part.File)
	if part.Offset == 0 {
		to := filepath.Join(folder, name)
		return to, os.Rename(part.File, to)
	}
	to := filepath.Join(folder, fmt.Sprintf("%s.from-byte-%d", name, part.Offset))
	data, err := os.ReadFile(part.File)
	if err != nil {
		return "", err
	}
	if err := writeSynced(to, data[part.Offset:]); err != nil {
		return "", err
	}
	f, err := os.OpenFile(part.File, os.O_WRONLY, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := f.Truncate(part.Offset); err != nil {
		return "", err
	}
	return to, f.Sync()
}

// writeSynced writes a new file and syncs it.
func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
