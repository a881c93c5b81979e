package bulklookup

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Resume reads an output a run left: the ids already written, and
// whether the file is new (it then needs its header). A last line cut
// short (no newline: a crash mid-write) is taken off the file, so the
// id is looked up again and the file stays valid. A file in the other
// format, or not an output of this command, is refused: nothing is
// appended to it.
func Resume(path, format string) (done map[string]bool, fresh bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(data) == 0) {
		return map[string]bool{}, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	if cut := bytes.LastIndexByte(data, '\n') + 1; cut < len(data) {
		if err := os.Truncate(path, int64(cut)); err != nil {
			return nil, false, fmt.Errorf("taking off the torn last line: %w", err)
		}
		data = data[:cut]
	}
	done = map[string]bool{}
	if format == JSONL {
		for i, l := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			var line Line
			if err := json.Unmarshal(l, &line); err != nil || line.ID == "" {
				return nil, false, fmt.Errorf("%s line %d is not a line of cardterm support bulk --format jsonl; nothing was appended", path, i+1)
			}
			done[line.ID] = true
		}
		return done, len(data) == 0, nil
	}
	records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(records) == 0 || len(records[0]) != len(header) || records[0][0] != header[0] {
		return nil, false, fmt.Errorf("%s is not a CSV of cardterm support bulk; nothing was appended", path)
	}
	for _, r := range records[1:] {
		done[r[0]] = true
	}
	return done, false, nil
}
