package casefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A cases folder may be shared by a desk of agents. Every write takes
// the case's advisory lock (flock on FILE.lock), reads the file as it is
// on disk, merges this copy into it (Merge: nothing either side added is
// lost), and writes the result whole, its revision one more. The writer
// learns what the others added since (News), and its copy becomes the
// merged case.

// Written is the outcome of a write: the case as it now is on disk and
// what other agents had added to it since this copy was read.
type Written struct {
	Case *Case
	News []string
}

// Write saves c at path under the case's lock, merged with the file as
// another agent may have left it; agent and now stamp the write.
func (c *Case) Write(path, agent string, now time.Time) (Written, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return Written{}, fmt.Errorf("the cases folder: %w", err)
	}
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return Written{}, err
	}
	defer unlock()
	merged, news := c.Clone(), []string(nil)
	disk, err := Load(path)
	switch {
	case err == nil:
		if disk.Revision != c.Revision {
			news = News(c, disk, agent)
		}
		merged = Merge(disk, c)
		merged.Revision = max(disk.Revision, c.Revision)
	case !errors.Is(err, fs.ErrNotExist):
		return Written{}, err
	}
	merged.Revision++
	merged.Updated, merged.UpdatedBy = now.UTC(), agent
	if err := merged.Save(path); err != nil {
		return Written{}, err
	}
	return Written{Case: merged, News: news}, nil
}

// orphanPattern matches the temporary files Save writes before renaming.
const orphanPattern = ".case-*"

// Adopted is what AdoptOrphans did with one temporary file.
type Adopted struct {
	File   string
	Ticket string
	// Torn says the file was not a whole case: kept as it is, named.
	Torn bool
}

// AdoptOrphans takes in the temporary files a write cut short (the app
// quit or crashed between writing and renaming) left in dir: each one
// holding a whole case is merged into its case under the case's lock
// and removed, so its last change is not lost. One that is not a whole
// case and is older than a minute (not a write in progress) is left and
// reported torn.
func AdoptOrphans(dir string, now time.Time) ([]Adopted, error) {
	files, err := filepath.Glob(filepath.Join(dir, orphanPattern))
	if err != nil {
		return nil, err
	}
	var out []Adopted
	for _, file := range files {
		if strings.HasSuffix(file, ".lock") {
			continue
		}
		orphan, err := Load(file)
		if err != nil {
			if info, serr := os.Lstat(file); serr == nil && now.Sub(info.ModTime()) > time.Minute {
				out = append(out, Adopted{File: file, Torn: true})
			}
			continue // a write in progress: its writer renames it
		}
		if err := adopt(dir, file, orphan); err != nil {
			return out, err
		}
		out = append(out, Adopted{File: file, Ticket: orphan.Ticket})
	}
	return out, nil
}

// adopt merges one orphan into its case under the case's lock. Under the
// lock no write of that case is in progress, so a temporary file still
// there is an orphan indeed.
func adopt(dir, file string, orphan *Case) error {
	path := PathFor(dir, orphan.Ticket)
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := os.Lstat(file); errors.Is(err, fs.ErrNotExist) {
		return nil // its writer renamed it after all
	}
	merged := orphan
	if disk, err := Load(path); err == nil {
		merged = Merge(disk, orphan)
		merged.Revision = max(disk.Revision, orphan.Revision) + 1
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := merged.Save(path); err != nil {
		return err
	}
	return os.Remove(file)
}
