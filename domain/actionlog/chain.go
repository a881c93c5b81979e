package actionlog

import (
	"bufio"
	"bytes"
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
// another's log). A FIFO, a device or a directory is refused before
// anything is read (openRegular): reading
// one could wait forever.
func VerifyFile(path string) (Report, error) {
	f, err := openRegular(path)
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
	lines := bufio.NewReaderSize(r, 64<<10)
	prevHash, prevSeq := "", 0
	for {
		raw, hash, size, err := readLine(lines)
		if err == io.EOF {
			break
		}
		if err != nil {
			return rep, fmt.Errorf("reading line %d: %w", rep.Lines+1, err)
		}
		rep.Lines++
		i := rep.Lines
		var e struct {
			Seq  *int    `json:"seq"`
			Prev *string `json:"prev"`
		}
		switch {
		case size > maxLine:
			add(i, "the line is %d bytes, longer than any entry (edited, or written before entries were bounded)", size)
			prevSeq++
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
		prevHash = hash
	}
	rep.Head = prevHash
	return rep, nil
}

// readLine reads one line of any length: its first maxLine bytes (without
// the newline), the hash of all of it and its length. A line too long to
// hold is still hashed whole, so the next line's link is checked.
func readLine(r *bufio.Reader) (head []byte, hash string, size int, err error) {
	sum := sha256.New()
	for {
		chunk, err := r.ReadSlice('\n')
		if len(chunk) == 0 && err == io.EOF {
			if size == 0 && head == nil {
				return nil, "", 0, io.EOF
			}
			break
		}
		chunk = bytes.TrimSuffix(chunk, []byte{'\n'})
		sum.Write(chunk)
		size += len(chunk)
		if len(head) < maxLine {
			head = append(head, chunk[:min(len(chunk), maxLine-len(head))]...)
		}
		if head == nil {
			head = []byte{}
		}
		if err == nil || err == io.EOF {
			break
		}
		if err != bufio.ErrBufferFull {
			return nil, "", 0, err
		}
	}
	return head, hex.EncodeToString(sum.Sum(nil)), size, nil
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

// openRegular opens any user's file to read (readFlags: file_unix.go,
// file_other.go), refusing what is not a regular file before any read.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, readFlags, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file (%v); refused", path, info.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
