package actionlog

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// The chain: every line holds its number (seq, from 1) and the SHA-256 of
// the line before it, exactly as written (prev, "" on the first). A line
// edited after the next one was written no longer has the hash the next
// one holds; a line removed leaves a gap in the numbers; a line added or
// moved breaks both. Verify walks the file and says where.

// LineHash is the hash a line's successor holds: hex SHA-256 of the line
// as written, without its newline.
func LineHash(line []byte) string {
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:])
}

// Problem is one break in the chain: the line it names (from 1) and what
// is wrong there.
type Problem struct {
	Line int
	Text string
}

func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Text) }

// Report is what Verify found.
type Report struct {
	// Lines is how many lines the file has.
	Lines int
	// Head is the hash of the last line: noted by an auditor, it lets a
	// later check see that the log still holds that line unchanged.
	Head string
	// Problems are the breaks found, in the file's order; none when the
	// log is whole.
	Problems []Problem
}

// Whole reports whether the chain holds from the first line to the last.
func (r Report) Whole() bool { return len(r.Problems) == 0 }

// VerifyFile verifies the log at path (any owner: an auditor reads
// another's log).
func VerifyFile(path string) (Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return Report{}, err
	}
	defer f.Close()
	return Verify(f)
}

// Verify reads a log and checks its chain line by line.
func Verify(r io.Reader) (Report, error) {
	var rep Report
	add := func(line int, format string, args ...any) {
		if n := len(rep.Problems); n > 0 && rep.Problems[n-1].Line == line {
			return // one problem a line: the first says it
		}
		rep.Problems = append(rep.Problems, Problem{Line: line, Text: fmt.Sprintf(format, args...)})
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	prevHash, prevSeq := "", 0
	for sc.Scan() {
		rep.Lines++
		i, raw := rep.Lines, sc.Bytes()
		var e struct {
			Seq  *int    `json:"seq"`
			Prev *string `json:"prev"`
		}
		switch {
		case len(raw) == 0:
			add(i, "the line is empty (a line was blanked, or one added)")
			prevSeq++
		case json.Unmarshal(raw, &e) != nil || !isEntry(raw) || e.Prev == nil:
			add(i, "the line is not an entry of the log (edited, or torn by a crash while it was written)")
			prevSeq++
		default:
			checkLink(add, i, *e.Seq, *e.Prev, prevHash, prevSeq)
			prevSeq = *e.Seq
		}
		prevHash = LineHash(raw)
	}
	if err := sc.Err(); err != nil {
		return rep, fmt.Errorf("reading line %d: %w", rep.Lines+1, err)
	}
	rep.Head = prevHash
	return rep, nil
}

// checkLink checks line i (number seq, holding prev) against the line
// before it (hash prevHash, number prevSeq; none for line 1).
func checkLink(add func(int, string, ...any), i, seq int, prev, prevHash string, prevSeq int) {
	switch {
	case i == 1 && (prev != "" || seq != 1):
		add(1, "the log does not start at its first line (it starts at line number %d): lines before it were removed", seq)
	case i == 1:
	case prev != prevHash && seq == prevSeq+1:
		add(i-1, "the line was edited: line %d holds the hash of another text", i)
	case prev != prevHash && seq > prevSeq+1:
		add(i, "%d line(s) before this one were removed (numbers %d to %d are missing)", seq-prevSeq-1, prevSeq+1, seq-1)
	case prev != prevHash:
		add(i, "the line was added or moved (its number %d does not follow %d)", seq, prevSeq)
	case seq != prevSeq+1:
		add(i, "the line's number was edited (%d where %d follows)", seq, prevSeq+1)
	}
}
