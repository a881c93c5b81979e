package table

import (
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// filterLevel is the rows matching one query and, for each, where the
// query first occurs in the row (packPos) and the first bytes of the cell
// from there (a head): typing on is checked against the heads alone, so
// narrowing reads the rows only to search again those that no longer match
// where they did.
type filterLevel struct {
	query string
	match []int32
	pos   []int32
	head  []uint64
}

// hits is where one pass writes the rows it keeps.
type hits struct {
	match, pos []int32
	head       []uint64
}

func (h hits) put(k int, row, pos int32, head uint64) {
	h.match[k], h.pos[k], h.head[k] = row, pos, head
}

func (h hits) slice(lo, hi int) hits {
	return hits{h.match[lo:hi], h.pos[lo:hi], h.head[lo:hi]}
}

// parallelMin is the row count from which a filter pass is split across
// the CPUs.
const parallelMin = 16384

// parts is how many goroutines share a pass over n rows.
func parts(n int) int {
	if n < parallelMin {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), 8)
}

// parallel runs work over [0,n) split in one chunk per CPU.
func parallel(n int, work func(lo, hi int)) {
	count := parts(n)
	if count == 1 {
		work(0, n)
		return
	}
	var wg sync.WaitGroup
	for c := range count {
		wg.Go(func() { work(n*c/count, n*(c+1)/count) })
	}
	wg.Wait()
}

// chunked runs scan over [0,n) split in one chunk per CPU. Each chunk
// writes what it keeps into its own part of one store and reports how many
// it kept; the parts are then packed together into a level for text.
func chunked(text string, n int, scan func(lo, hi int, out hits) int) filterLevel {
	store := hits{make([]int32, n), make([]int32, n), make([]uint64, n)}
	count := parts(n)
	kept := make([]int, count)
	bounds := func(c int) (int, int) { return n * c / count, n * (c + 1) / count }
	var wg sync.WaitGroup
	for c := range count {
		lo, hi := bounds(c)
		wg.Go(func() { kept[c] = scan(lo, hi, store.slice(lo, hi)) })
	}
	wg.Wait()
	total := 0
	for c := range count {
		lo, _ := bounds(c)
		copy(store.match[total:], store.match[lo:lo+kept[c]])
		copy(store.pos[total:], store.pos[lo:lo+kept[c]])
		copy(store.head[total:], store.head[lo:lo+kept[c]])
		total += kept[c]
	}
	lv := filterLevel{query: text, match: store.match[:total], pos: store.pos[:total], head: store.head[:total]}
	if total < n/4 { // do not keep a big store alive for a few matches
		lv.match = append([]int32(nil), lv.match...)
		lv.pos = append([]int32(nil), lv.pos...)
		lv.head = append([]uint64(nil), lv.head...)
	}
	return lv
}

// scanRange finds the rows in [from, to) containing q. A one-letter or
// one-digit query is answered from the masks; otherwise the masks skip the
// rows that lack one of its characters and the rest are searched.
func (t *Table) scanRange(from, to int, text string) filterLevel {
	q := newQuery(text)
	oneAlnum := len(text) == 1 && isAlnum(text[0])
	masks := t.masks
	return chunked(text, to-from, func(lo, hi int, out hits) int {
		k := 0
		for r := from + lo; r < from+hi; r++ {
			m := masks[r]
			if !q.mayMatch(m) {
				continue
			}
			if oneAlnum && m&searchAlways == 0 {
				out.put(k, int32(r), unknownPos, 0)
				k++
				continue
			}
			if p, head, ok := t.findInRow(r, q, m, 0, 0); ok {
				out.put(k, int32(r), p, head)
				k++
			}
		}
		return k
	})
}

// stillAt reports whether the row's match at p, whose cell starts there
// with head, is a match of q too. Up to headBytes of query the head says;
// past them the rest is compared in the row itself.
func (t *Table) stillAt(row int, p int32, head uint64, q query, mask uint64) bool {
	if p == unknownPos || head&q.headMask != q.head {
		return false
	}
	if len(q.text) <= headBytes {
		return true
	}
	col, offset := unpackPos(p)
	s := t.searchText(row, col, mask)
	at := offset + headBytes
	return at <= len(s) && hasPrefixFold(s[at:], q.text[headBytes:])
}

// narrow keeps the rows of base that contain text, which extends
// base.query. Where the old match goes on with the new characters the
// row passes on its head; only the others are searched again.
func (t *Table) narrow(base filterLevel, text string) filterLevel {
	q := newQuery(text)
	masks := t.masks
	// Common case first: every row still matches where it did (typing on in
	// a word they all share). Then the level shares the old slices, which
	// are never written after they are built, and nothing is allocated. The
	// check is split across the CPUs like the scan; a chunk that meets a row
	// that no longer matches tells the others to stop.
	var moved atomic.Bool
	parallel(len(base.match), func(lo, hi int) {
		for b := lo; b < hi && !moved.Load(); b++ {
			r := base.match[b]
			if !t.stillAt(int(r), base.pos[b], base.head[b], q, masks[r]) {
				moved.Store(true)
			}
		}
	})
	if !moved.Load() {
		return filterLevel{query: text, match: base.match, pos: base.pos, head: base.head}
	}
	return chunked(text, len(base.match), func(lo, hi int, out hits) int {
		k := 0
		for b := lo; b < hi; b++ {
			r, p, head := base.match[b], base.pos[b], base.head[b]
			m := masks[r]
			if !q.mayMatch(m) {
				continue
			}
			if t.stillAt(int(r), p, head, q, m) {
				out.put(k, r, p, head)
				k++
				continue
			}
			col, offset := 0, 0
			if p != unknownPos {
				col, offset = unpackPos(p)
				offset++
			}
			if found, head, ok := t.findInRow(int(r), q, m, col, offset); ok {
				out.put(k, r, found, head)
				k++
			}
		}
		return k
	})
}

// ClearFilter closes the quick filter and shows every row: a screen
// asked to list other rows (the Spending screen's bar) does not keep a
// filter the user no longer sees the reason for.
func (t *Table) ClearFilter() {
	t.filtering = false
	t.setFilter("")
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
	t.measured = [2]int{} // the same positions on screen are other rows now
	q := strings.ToLower(t.filter)
	for len(t.levels) > 0 && !strings.HasPrefix(q, t.levels[len(t.levels)-1].query) {
		t.levels = t.levels[:len(t.levels)-1]
	}
	switch {
	case q == "":
		t.levels = nil
		t.view = nil
	case len(t.levels) > 0 && t.levels[len(t.levels)-1].query == q:
		t.view = t.levels[len(t.levels)-1].match
	default:
		t.ensureIndex()
		var lv filterLevel
		if len(t.levels) > 0 {
			lv = t.narrow(t.levels[len(t.levels)-1], q)
		} else {
			lv = t.scanRange(0, t.n, q)
		}
		// A copy must not append into a level slice another copy still reads.
		t.levels = append(t.levels[:len(t.levels):len(t.levels)], lv)
		t.boundLevels()
		t.view = lv.match
	}
	if keep >= 0 {
		pos, _ := t.position(keep)
		t.cursor = pos
	}
	t.clamp()
}

// levelRows bounds the rows the cached levels hold together (16 bytes a
// row): typing a filter over 100,000 rows whose every row matches its
// first characters would otherwise keep a level of all of them per
// character typed (1.6 MB each). The oldest levels go first; backspace
// past the ones kept searches again from the index.
func (t *Table) levelRows() int { return max(t.n, 1<<16) }

// boundLevels drops the oldest cached levels past levelRows; the level
// in effect always stays.
func (t *Table) boundLevels() {
	total := 0
	for _, lv := range t.levels {
		total += len(lv.match)
	}
	drop := 0
	for drop < len(t.levels)-1 && total > t.levelRows() {
		total -= len(t.levels[drop].match)
		drop++
	}
	if drop > 0 {
		t.levels = append([]filterLevel(nil), t.levels[drop:]...)
	}
}

// keepLastLevel keeps only the level in effect once the filter line
// closes: it is what the rows on screen are; the shorter prefixes served
// typing.
func (t *Table) keepLastLevel() {
	if len(t.levels) > 1 {
		t.levels = []filterLevel{t.levels[len(t.levels)-1]}
	}
}

// growFilter applies the filter to the rows from old on, which Grow added:
// each cached level gains the new rows that match it, found by narrowing
// the previous level's new rows as typing did.
func (t *Table) growFilter(old int) {
	t.ensureIndex()
	levels := make([]filterLevel, len(t.levels))
	var added filterLevel
	for k, lv := range t.levels {
		if k == 0 {
			added = t.scanRange(old, t.n, lv.query)
		} else {
			added = t.narrow(added, lv.query)
		}
		// Fresh slices: copies of the table may still read the old ones.
		levels[k] = filterLevel{
			query: lv.query,
			match: append(lv.match[:len(lv.match):len(lv.match)], added.match...),
			pos:   append(lv.pos[:len(lv.pos):len(lv.pos)], added.pos...),
			head:  append(lv.head[:len(lv.head):len(lv.head)], added.head...),
		}
	}
	t.levels = levels
	if len(levels) > 0 {
		t.view = levels[len(levels)-1].match
	}
}

// position finds a row in the view (ascending), or where it would be.
func (t Table) position(rowIndex int) (int, bool) {
	if t.filter == "" {
		return min(max(rowIndex, 0), t.n), rowIndex >= 0 && rowIndex < t.n
	}
	pos := sort.Search(len(t.view), func(k int) bool { return int(t.view[k]) >= rowIndex })
	return pos, pos < len(t.view) && int(t.view[pos]) == rowIndex
}

// SetFilter applies a quick filter given whole (a saved view's), the
// filter line closed, as if it had been typed.
func (t *Table) SetFilter(f string) {
	t.filtering = false
	t.setFilter(f)
}
