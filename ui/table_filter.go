package ui

import (
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// filterText is the text of all rows, sanitized and lower-cased once, in one
// buffer: row i is buf[off[i]:off[i+1]]. One buffer keeps a scan of 100,000
// rows in cache order; rows end with '\n' and cells are separated by
// cellSep, neither of which a typed (sanitized) query contains, so a match
// never spans two cells.
type filterText struct {
	buf string
	off []int32
	// first[c][i] is where letter or digit c first occurs in row i
	// (noByte when it does not, farByte when past what uint16 holds), so
	// the first keystroke of a filter reads one column instead of
	// searching every row.
	first [36][]uint16
}

const cellSep = '\x1f'

// Markers in filterText.first.
const (
	noByte  = 0xFFFF
	farByte = 0xFFFE
)

// alnumColumn maps a lower-case ASCII letter or digit to its column in
// filterText.first, every other byte to -1 (a table: this runs per byte).
var alnumColumn = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = int8(c - 'a')
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = int8(26 + c - '0')
	}
	return t
}()

// alnumIndex is the column of c in filterText.first, or -1.
func alnumIndex(c byte) int { return int(alnumColumn[c]) }

func newFilterText(rows [][]string) filterText {
	size := 0
	for _, r := range rows {
		for _, c := range r {
			size += len(c) + 1
		}
		size++
	}
	b := make([]byte, 0, size)
	off := make([]int32, len(rows)+1)
	for i, r := range rows {
		off[i] = int32(len(b))
		for j, c := range r {
			if j > 0 {
				b = append(b, cellSep)
			}
			b = appendLower(b, Sanitize(c))
		}
		b = append(b, '\n')
	}
	off[len(rows)] = int32(len(b))
	f := filterText{buf: string(b), off: off}
	f.indexFirstBytes()
	return f
}

// indexFirstBytes fills first: one pass over the text.
func (f *filterText) indexFirstBytes() {
	n := len(f.off) - 1
	cols := make([]uint16, 36*n)
	for c := range f.first {
		f.first[c] = cols[c*n : (c+1)*n : (c+1)*n]
	}
	var row [36]uint16 // this row's first positions, then copied out
	for r := range n {
		for c := range row {
			row[c] = noByte
		}
		start, end := int(f.off[r]), int(f.off[r+1])
		for p := start; p < end; p++ {
			c := alnumColumn[f.buf[p]]
			if c < 0 || row[c] != noByte {
				continue
			}
			row[c] = uint16(min(p-start, farByte))
		}
		for c, p := range row {
			f.first[c][r] = p
		}
	}
}

// scanFirstByte is scanAll for a one-letter or one-digit query: a read of
// its column.
func (f *filterText) scanFirstByte(q string, col []uint16) filterLevel {
	n := 0
	for _, p := range col {
		if p != noByte {
			n++
		}
	}
	match, pos := make([]int32, 0, n), make([]int32, 0, n)
	for r, p := range col {
		switch p {
		case noByte:
			continue
		case farByte: // a very long row: find it past what uint16 holds
			start := int(f.off[r]) + farByte
			p := farByte + strings.IndexByte(f.buf[start:f.off[r+1]], q[0])
			match, pos = append(match, int32(r)), append(pos, int32(p))
		default:
			match, pos = append(match, int32(r)), append(pos, int32(p))
		}
	}
	return filterLevel{query: q, match: match, pos: pos}
}

// appendLower lower-cases ASCII in place and the rest with strings.ToLower.
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return append(b, strings.ToLower(s[i:])...)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// filterLevel is the rows matching one query and, for each, the offset of
// the query's first occurrence in the row text: extending the query checks
// the bytes after it first, so narrowing is mostly one comparison a row.
type filterLevel struct {
	query string
	match []int32
	pos   []int32
}

// parallelMin is the row count from which a filter pass is split across
// the CPUs.
const parallelMin = 16384

// chunked runs scan over [0,n) split in one chunk per CPU (one chunk for
// small n). Each chunk writes its results into its own part of one store
// and reports how many it kept; the parts are then packed together.
func chunked(n int, scan func(lo, hi int, match, pos []int32) int) (match, pos []int32) {
	store := make([]int32, 2*n)
	match, pos = store[:n:n], store[n:]
	parts := 1
	if n >= parallelMin {
		parts = min(runtime.GOMAXPROCS(0), 8)
	}
	counts := make([]int, parts)
	bounds := func(c int) (int, int) { return n * c / parts, n * (c + 1) / parts }
	if parts == 1 {
		counts[0] = scan(0, n, match, pos)
	} else {
		var wg sync.WaitGroup
		for c := range parts {
			lo, hi := bounds(c)
			wg.Add(1)
			go func() {
				defer wg.Done()
				counts[c] = scan(lo, hi, match[lo:hi], pos[lo:hi])
			}()
		}
		wg.Wait()
	}
	total := 0
	for c := range parts {
		lo, _ := bounds(c)
		copy(match[total:], match[lo:lo+counts[c]])
		copy(pos[total:], pos[lo:lo+counts[c]])
		total += counts[c]
	}
	match, pos = match[:total], pos[:total]
	if total < n/4 { // do not keep a big store alive for a few matches
		match = append([]int32(nil), match...)
		pos = append([]int32(nil), pos...)
	}
	return match, pos
}

// scanAll finds the rows containing q, one pass over each chunk of the
// buffer.
func (f *filterText) scanAll(q string) filterLevel {
	if len(q) == 1 {
		if c := alnumIndex(q[0]); c >= 0 {
			return f.scanFirstByte(q, f.first[c])
		}
	}
	buf, off := f.buf, f.off
	match, pos := chunked(len(off)-1, func(lo, hi int, match, pos []int32) int {
		k := 0
		r := lo
		p := int(off[lo])
		end := int(off[hi])
		for p < end {
			j := strings.Index(buf[p:end], q)
			if j < 0 {
				break
			}
			abs := int32(p + j)
			for off[r+1] <= abs {
				r++
			}
			match[k], pos[k] = int32(r), abs-off[r]
			k++
			p = int(off[r+1])
		}
		return k
	})
	return filterLevel{query: q, match: match, pos: pos}
}

// narrow keeps the rows of base that contain q, which extends base.query.
// Where the old match is followed by the new text the row passes with one
// comparison; only the others are searched again.
func (f *filterText) narrow(base filterLevel, q string) filterLevel {
	suffix := q[len(base.query):]
	ql := len(base.query)
	buf, off := f.buf, f.off
	// Common case first: every row still matches where it did (typing on in
	// a word they all share). Then the level shares the old slices, which
	// are never written after they are built, and nothing is allocated.
	same := true
	c0 := suffix[0]
	for b, i := range base.match {
		at := int(off[i]) + int(base.pos[b]) + ql
		if buf[at] != c0 || (len(suffix) > 1 && !strings.HasPrefix(buf[at:], suffix)) {
			same = false
			break
		}
	}
	if same {
		return filterLevel{query: q, match: base.match, pos: base.pos}
	}
	match, pos := chunked(len(base.match), func(lo, hi int, match, pos []int32) int {
		k := 0
		for b := lo; b < hi; b++ {
			i := base.match[b]
			start := int(off[i])
			p := int(base.pos[b])
			// The old match ends before the row's newline, so at is in the row.
			at := start + p + ql
			if buf[at] == suffix[0] && (len(suffix) == 1 || strings.HasPrefix(buf[at:], suffix)) {
				match[k], pos[k] = i, int32(p)
				k++
				continue
			}
			if j := strings.Index(buf[start+p+1:off[i+1]], q); j >= 0 {
				match[k], pos[k] = i, int32(p+1+j)
				k++
			}
		}
		return k
	})
	return filterLevel{query: q, match: match, pos: pos}
}

// setFilter changes the filter, keeping the cursor on the same row if it
// still passes, else on the nearest one after it.
func (t *Table) setFilter(f string) {
	keep := -1
	if i, ok := t.Cursor(); ok {
		keep = i
	}
	t.filter = f
	t.applyFilter(keep)
}

// applyFilter narrows from the matches of the longest cached prefix of the
// filter (typing one more character scans only the previous matches) and
// drops cached levels that no longer apply (backspace reuses them).
func (t *Table) applyFilter(keep int) {
	q := strings.ToLower(t.filter)
	for len(t.levels) > 0 && !strings.HasPrefix(q, t.levels[len(t.levels)-1].query) {
		t.levels = t.levels[:len(t.levels)-1]
	}
	switch {
	case q == "":
		t.levels = nil
		t.view = t.all
	case len(t.levels) > 0 && t.levels[len(t.levels)-1].query == q:
		t.view = t.levels[len(t.levels)-1].match
	default:
		var lv filterLevel
		if len(t.levels) > 0 {
			lv = t.text.narrow(t.levels[len(t.levels)-1], q)
		} else {
			lv = t.text.scanAll(q)
		}
		// A copy must not append into a level slice another copy still reads.
		t.levels = append(t.levels[:len(t.levels):len(t.levels)], lv)
		t.view = lv.match
	}
	if keep >= 0 {
		pos, _ := t.position(keep)
		t.cursor = pos
	}
	t.clamp()
}

// position finds a row in the view (ascending), or where it would be.
func (t Table) position(rowIndex int) (int, bool) {
	pos := sort.Search(len(t.view), func(k int) bool { return int(t.view[k]) >= rowIndex })
	return pos, pos < len(t.view) && int(t.view[pos]) == rowIndex
}
