package sandbox

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Stores of version 1 (earlier cardterm releases) had no checksum on
// records, and journals beside the database, DIR/sandbox.journal.<N>,
// folded into it every 2 s and when the sandbox stopped. A version 1
// database is migrated at open, in one transaction: every record gets its
// checksum. Journals are left only by a release that was killed, and hold
// changes it had not folded in yet; reading them is that release's code,
// so they are refused with what to do.

const legacyJournalPrefix = "sandbox.journal."

// isLegacyJournal reports whether name is a journal's.
func isLegacyJournal(name string) bool {
	rest, ok := strings.CutPrefix(name, legacyJournalPrefix)
	_, err := strconv.ParseUint(rest, 10, 64)
	return ok && err == nil
}

// refuseLegacyJournals refuses a directory holding journals (checked
// already to hold nothing else of that name).
func refuseLegacyJournals(dir string) error {
	journals, _ := filepath.Glob(filepath.Join(dir, legacyJournalPrefix+"*"))
	if len(journals) == 0 {
		return nil
	}
	return fmt.Errorf("data directory %s holds %s: changes an older cardterm (store version 1) had not yet moved into %s when it was killed, in a format this cardterm does not read; refusing to use the directory. Start that cardterm once on it and stop it with ctrl+c (it moves them in and removes them), or move them out of the directory to start without those changes",
		dir, strings.Join(journals, ", "), StoreFile)
}

// migrate makes a version 1 store the current version.
func migrate(tx *bolt.Tx) error {
	meta, state := tx.Bucket(bucketMeta), tx.Bucket(bucketState)
	records := map[string][]byte{}
	if err := state.ForEach(func(k, v []byte) error { records[string(k)] = bytes.Clone(v); return nil }); err != nil {
		return err
	}
	if err := putRecords(state, records); err != nil {
		return err
	}
	if err := meta.Delete([]byte("checkpoint")); err != nil { // the last journal folded in
		return err
	}
	return meta.Put(versionKey, []byte(strconv.Itoa(storeVersion)))
}
