package whitelist

import (
	"bytes"
	"compress/flate"
	"io"
	"strings"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
)

// How the screen keeps 100,000 entries small. The client hands over each
// batch of entries with their string fields as substrings of the answer's
// text, which holds every member name and every record twice over (the
// record's raw text and its fields). A batch is packed as it arrives, on
// the request's goroutine: the fields the screen shows and acts on are
// copied into one string, end to end, found by their end offsets; the
// records as the gateway sent them, which only the inspector reads, are
// kept compressed and decompressed for the one entry it shows. The answer's
// text is then free.

// Fields of a packed entry, in the order they are written: what the screen
// shows and acts on, the dates as the table shows them (the day); the
// rest is in the record. The first and last names are written with one
// space between them, so the beneficiary's full name is a substring too.
const (
	fieldID = iota
	fieldName
	fieldFirst
	fieldLast
	fieldAddress
	fieldMemo
	fieldLastUsed
	fieldCreated
	packedFields
)

// Flags of a packed entry: the fields a nil pointer and "" tell apart.
const (
	hasMemo uint8 = 1 << iota
	hasLastUsed
)

// packedBatch is one batch of entries, packed.
type packedBatch struct {
	text string // the fields of every entry, one after another
	// Where each entry starts in text, and where each of its
	// packedFields fields ends, counted from the entry's start; a batch
	// with an entry of 64 KiB or more has wide instead: every field's end
	// in text.
	starts []uint32
	ends   []uint16
	wide   []uint32
	flags  []uint8 // per entry
	// raw is the records as the gateway sent them, one after another,
	// flate-compressed; rawEnds says where each ends once decompressed.
	raw     []byte
	rawEnds []uint32
}

// packer packs batches; it keeps its compressor from batch to batch. One
// packer serves one load, on the load's packing goroutine.
type packer struct {
	ends   []uint32 // every field's end in the batch's text
	fields strings.Builder
	raw    bytes.Buffer
	zw     *flate.Writer
}

// pack copies the batch's fields and compresses its records; the batch
// (and the answer's text it points into) is not kept.
func (p *packer) pack(batch []apiclient.WhitelistEntry) *packedBatch {
	size := 0
	for i := range batch {
		e := &batch[i]
		size += len(e.ID) + len(e.Name) + len(e.BeneficiaryFirstName) + 1 + len(e.BeneficiaryLastName) +
			len(e.WalletAddress) + len(screenkit.DateOnly(e.CreatedAt))
		if e.WalletMemo != nil {
			size += len(*e.WalletMemo)
		}
		if e.LastUsedAt != nil {
			size += len(screenkit.DateOnly(*e.LastUsedAt))
		}
	}
	p.fields.Grow(size) // a fresh builder: the last batch's text went with it
	b := &packedBatch{flags: make([]uint8, len(batch)), rawEnds: make([]uint32, len(batch))}
	p.ends = p.ends[:0]
	p.raw.Reset()
	if p.zw == nil {
		p.zw, _ = flate.NewWriter(&p.raw, flate.BestSpeed) // BestSpeed is a valid level
	} else {
		p.zw.Reset(&p.raw)
	}
	write := func(s string) {
		p.fields.WriteString(s)
		p.ends = append(p.ends, uint32(p.fields.Len()))
	}
	rawEnd := uint32(0)
	for i := range batch {
		e := &batch[i]
		write(e.ID)
		write(e.Name)
		write(e.BeneficiaryFirstName)
		p.fields.WriteByte(' ')
		write(e.BeneficiaryLastName)
		write(e.WalletAddress)
		if e.WalletMemo != nil {
			b.flags[i] |= hasMemo
			write(*e.WalletMemo)
		} else {
			write("")
		}
		if e.LastUsedAt != nil {
			b.flags[i] |= hasLastUsed
			write(screenkit.DateOnly(*e.LastUsedAt))
		} else {
			write("")
		}
		write(screenkit.DateOnly(e.CreatedAt))
		_, _ = io.WriteString(p.zw, string(e.Raw)) // into memory: cannot fail
		rawEnd += uint32(len(e.Raw))
		b.rawEnds[i] = rawEnd
	}
	_ = p.zw.Close()
	b.setEnds(p.ends)
	b.text = p.fields.String()
	p.fields = strings.Builder{} // b.text keeps the builder's memory
	b.raw = bytes.Clone(p.raw.Bytes())
	return b
}

// len is the number of entries in the batch.
func (b *packedBatch) len() int { return len(b.flags) }

// setEnds keeps the fields' ends in text, each entry's counted from its
// start when every entry is shorter than 64 KiB.
func (b *packedBatch) setEnds(ends []uint32) {
	n := b.len()
	starts := make([]uint32, n)
	for k := 1; k < n; k++ {
		starts[k] = ends[k*packedFields-1]
	}
	for k := range n {
		if ends[(k+1)*packedFields-1]-starts[k] > 0xffff {
			b.wide = append([]uint32(nil), ends...)
			return
		}
	}
	b.starts = starts
	b.ends = make([]uint16, len(ends))
	for i, end := range ends {
		b.ends[i] = uint16(end - starts[i/packedFields])
	}
}

// end is where field f of entry k ends in text.
func (b *packedBatch) end(k, f int) uint32 {
	if b.wide != nil {
		return b.wide[k*packedFields+f]
	}
	return b.starts[k] + uint32(b.ends[k*packedFields+f])
}

// field is field f of entry k. It is what every cell the table draws or
// searches costs, so the common case reads the entry's ends once.
func (b *packedBatch) field(k, f int) string {
	if b.wide != nil {
		var start uint32
		switch {
		case f == fieldLast:
			start = b.wide[k*packedFields+fieldFirst] + 1 // after the space
		case f > 0:
			start = b.wide[k*packedFields+f-1]
		case k > 0:
			start = b.wide[k*packedFields-1]
		}
		return b.text[start:b.wide[k*packedFields+f]]
	}
	base := b.starts[k]
	ends := b.ends[k*packedFields : k*packedFields+packedFields]
	var start uint32
	switch {
	case f == fieldLast:
		start = uint32(ends[fieldFirst]) + 1 // after the space
	case f > 0:
		start = uint32(ends[f-1])
	}
	return b.text[base+start : base+uint32(ends[f])]
}

// beneficiary is entry k's beneficiary's full name.
func (b *packedBatch) beneficiary(k int) string {
	first, last := b.field(k, fieldFirst), b.field(k, fieldLast)
	switch {
	case first == "":
		return last
	case last == "":
		return first
	}
	start := b.end(k, fieldFirst) - uint32(len(first))
	return b.text[start:b.end(k, fieldLast)]
}

// entry is entry k with the fields the screen uses, its dates the days the
// table shows (not Currency, Extra or Raw: the record has them).
func (b *packedBatch) entry(k int) *apiclient.WhitelistEntry {
	e := &apiclient.WhitelistEntry{ID: b.field(k, fieldID), Name: b.field(k, fieldName),
		BeneficiaryFirstName: b.field(k, fieldFirst), BeneficiaryLastName: b.field(k, fieldLast),
		WalletAddress: b.field(k, fieldAddress), CreatedAt: b.field(k, fieldCreated)}
	if b.flags[k]&hasMemo != 0 {
		memo := b.field(k, fieldMemo)
		e.WalletMemo = &memo
	}
	if b.flags[k]&hasLastUsed != 0 {
		used := b.field(k, fieldLastUsed)
		e.LastUsedAt = &used
	}
	return e
}

// rawRecords decompresses the batch's records, one after another.
func (b *packedBatch) rawRecords() (string, error) {
	text, err := io.ReadAll(flate.NewReader(bytes.NewReader(b.raw)))
	return string(text), err
}

// record is entry k as the gateway sent it, from the batch's records.
func (b *packedBatch) record(records string, k int) string {
	start := uint32(0)
	if k > 0 {
		start = b.rawEnds[k-1]
	}
	end := b.rawEnds[k]
	if int(end) > len(records) {
		return ""
	}
	return records[start:end]
}
