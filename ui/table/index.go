package table

import (
	"strings"

	"cardterm/domain/lazy"
	"cardterm/ui/sanitize"
)

// The filter's index: one 64-bit mask a row saying which characters the
// row holds (8 bytes a row, against a lower-cased copy of every cell plus
// 72 bytes a row before). It is built on the first filter search, not when
// data arrives, and a search reads the cells through the accessor, folding
// case as it compares, so no second copy of the text is ever made.

// searchAlways marks a row holding a byte other than printable ASCII (a
// control character, which sanitize.Text rewrites, or UTF-8, which folds by
// Unicode rules): such a row passes every mask test and is searched in its
// sanitized, lower-cased form.
const searchAlways = 1 << 63

// byteBits are each byte's bit in a row mask: letters (either case) and
// digits have a bit of their own, so a one-character query is answered
// from the masks alone; other printable ASCII shares the bits 36 to 61.
// Made at first use: filling the table before main cost every start
// (`cardterm --version` included) several microseconds.
var byteBits = lazy.Value[*[256]uint64]{New: func() *[256]uint64 {
	t := new([256]uint64)
	for c := range t {
		t[c] = searchAlways
	}
	for c := 0x20; c < 0x7f; c++ {
		t[c] = 1 << (36 + c%26)
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = 1 << (c - 'a')
		t[c-'a'+'A'] = t[c]
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = 1 << (26 + c - '0')
	}
	return t
}}

// isAlnum reports whether c has a mask bit of its own.
func isAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// ensureIndex extends the masks to every row. Appending in place is safe
// although copies of the table share the slice: new data drops the masks,
// so copies that append over each other write the same rows' masks.
func (t *Table) ensureIndex() {
	have := len(t.masks)
	if have >= t.n {
		return
	}
	t.masks = append(t.masks, make([]uint64, t.n-have)...)
	masks := t.masks
	parallel(t.n-have, func(lo, hi int) {
		for r := have + lo; r < have+hi; r++ {
			masks[r] = t.rowMask(r)
		}
	})
}

// rowMask is the bits of every byte of a row's cells.
func (t *Table) rowMask(row int) uint64 {
	var m uint64
	byteBit := byteBits.Get()
	for col := range t.rowCells(row) {
		s := t.cell(row, col)
		for i := 0; i < len(s); i++ {
			bit := byteBit[s[i]]
			if bit == searchAlways {
				return searchAlways
			}
			m |= bit
		}
	}
	return m
}

// query is a lower-cased filter text and what a search needs of it.
type query struct {
	text string
	need uint64 // the mask bits a row must have to contain text
	// fold is whether text has a letter: without one a plain search
	// finds exactly what a case-folding one would.
	fold bool
	// head and headMask are the query's first headBytes in a match's head
	// and which of its bits they fill.
	head, headMask uint64
}

func newQuery(text string) query {
	q := query{text: text, head: headOf(text)}
	byteBit := byteBits.Get()
	for i := 0; i < len(text); i++ {
		q.need |= byteBit[text[i]]
		q.fold = q.fold || 'a' <= text[i] && text[i] <= 'z'
	}
	if n := min(len(text), headBytes); n < headBytes {
		q.headMask = 1<<(8*n) - 1
	} else {
		q.headMask = ^uint64(0)
	}
	return q
}

// mayMatch reports whether a row with mask m can contain the query.
func (q query) mayMatch(m uint64) bool { return m&searchAlways != 0 || m&q.need == q.need }

// index is the first offset of the query in s, ignoring ASCII case (s is
// either printable ASCII or already lower-cased), or -1.
func (q query) index(s string) int {
	if !q.fold {
		return strings.Index(s, q.text)
	}
	c0 := q.text[0]
	upper := c0
	if 'a' <= c0 && c0 <= 'z' {
		upper = c0 - 'a' + 'A'
	}
	for i := 0; i+len(q.text) <= len(s); i++ {
		if b := s[i]; (b == c0 || b == upper) && hasPrefixFold(s[i+1:], q.text[1:]) {
			return i
		}
	}
	return -1
}

// hasPrefixFold reports whether s starts with the lower-case prefix,
// ignoring ASCII case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		b := s[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b != prefix[i] {
			return false
		}
	}
	return true
}

// searchText is a cell as the filter sees it: the cell itself for a row of
// printable ASCII, else sanitized and lower-cased (what is drawn, in one
// case).
func (t *Table) searchText(row, col int, mask uint64) string {
	s := t.cell(row, col)
	if mask&searchAlways != 0 {
		return strings.ToLower(sanitize.Text(s))
	}
	return s
}

// A match's position is its cell and the offset in that cell's search
// text, in one int32; unknownPos means "search the row from its start"
// (the one-character answer from the masks, or a position too far out).
const (
	unknownPos = -1
	offsetBits = 24
	maxCol     = 1<<(31-offsetBits) - 1
)

func packPos(col, offset int) int32 {
	if col > maxCol || offset >= 1<<offsetBits {
		return unknownPos
	}
	return int32(col<<offsetBits | offset)
}

func unpackPos(p int32) (col, offset int) { return int(p >> offsetBits), int(p & (1<<offsetBits - 1)) }

// findInRow is the first position of q in a row at or after (col, offset),
// with the head of the cell from there.
func (t *Table) findInRow(row int, q query, mask uint64, col, offset int) (int32, uint64, bool) {
	for cells := t.rowCells(row); col < cells; col, offset = col+1, 0 {
		s := t.searchText(row, col, mask)
		if offset > len(s) {
			continue
		}
		if j := q.index(s[offset:]); j >= 0 {
			p := packPos(col, offset+j)
			if p == unknownPos {
				return p, 0, true
			}
			return p, headOf(s[offset+j:]), true
		}
	}
	return unknownPos, 0, false
}

// headBytes is how many bytes of a cell a match's head holds.
const headBytes = 8

// headOf is the first bytes of s, lower-cased, in one word (first byte
// lowest), zero past the end of s: a search text never holds a zero byte
// (sanitize.Text rewrites control characters), so a query never matches there.
func headOf(s string) uint64 {
	var head uint64
	for i := min(len(s), headBytes) - 1; i >= 0; i-- {
		b := s[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		head = head<<8 | uint64(b)
	}
	return head
}
