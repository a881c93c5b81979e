package whitelist

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"sync"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// A whitelist may hold 100,000 entries (about 31 MB of JSON). The screen
// shows the first ones as soon as they are decoded and the count climbs in
// the table's footer while the rest arrives; esc stops the load and keeps
// what arrived. Each batch the client decodes is packed beside the decoding
// (packing.go, packed.go) and held once; the table reads its cells from it.

// returnMemoryAfter is how many entries a load reads before the memory
// that reading them took is handed back to the system when it ends (about
// 3 MB of answer).
const returnMemoryAfter = 10_000

// entryStore holds the entries of one load in the packed batches they
// arrived in.
type entryStore struct {
	batches []*packedBatch
	starts  []int // index of each batch's first entry
	n       int

	// The last entry built by at and the last batch whose records were
	// decompressed: the selected entry is asked for on every frame.
	// Only the screen's goroutine touches them (the table's filter
	// goroutines read cells alone).
	atIndex   int
	atEntry   *apiclient.WhitelistEntry
	rawBatch  *packedBatch
	rawRecord string
}

func (s *entryStore) add(batch *packedBatch) {
	if batch.len() == 0 {
		return
	}
	s.batches = append(s.batches, batch)
	s.starts = append(s.starts, s.n)
	s.n += batch.len()
}

// len is the number of entries held; a nil store holds none.
func (s *entryStore) len() int {
	if s == nil {
		return 0
	}
	return s.n
}

// locate finds entry i (0 <= i < len): its batch and its place there.
// Batches are all the same size but the last, so the batch is found by a
// division; a search covers any other shape.
func (s *entryStore) locate(i int) (*packedBatch, int) {
	if size := s.batches[0].len(); i/size < len(s.batches) {
		if b := i / size; s.starts[b] == b*size && i-s.starts[b] < s.batches[b].len() {
			return s.batches[b], i - s.starts[b]
		}
	}
	b := sort.SearchInts(s.starts, i+1) - 1
	return s.batches[b], i - s.starts[b]
}

// at is entry i with the fields the screen shows and acts on (its Raw is
// record's).
func (s *entryStore) at(i int) *apiclient.WhitelistEntry {
	if s.atEntry == nil || s.atIndex != i {
		b, k := s.locate(i)
		s.atIndex, s.atEntry = i, b.entry(k)
	}
	return s.atEntry
}

// record is entry i exactly as the gateway sent it ("" if its batch cannot
// be read back, which only a bug would cause).
func (s *entryStore) record(i int) string {
	b, k := s.locate(i)
	if s.rawBatch != b {
		records, err := b.rawRecords()
		if err != nil {
			return ""
		}
		s.rawBatch, s.rawRecord = b, records
	}
	return b.record(s.rawRecord, k)
}

// entryCell is the text of one table cell of entry row (the columns of
// whitelistColumns); the table sanitizes it when drawing. It only reads:
// the table's filter calls it from several goroutines.
func (s *entryStore) entryCell(row, col int) string {
	b, k := s.locate(row)
	switch col {
	case 0:
		return b.field(k, fieldName)
	case 1:
		return b.beneficiary(k)
	case 2:
		return b.field(k, fieldAddress)
	case 3:
		return b.field(k, fieldMemo)
	case 4:
		if b.flags[k]&hasLastUsed == 0 {
			return "never"
		}
		return b.field(k, fieldLastUsed)
	case 5:
		return b.field(k, fieldCreated)
	}
	return ""
}

// beneficiary is the entry's beneficiary's full name.
func beneficiary(e *apiclient.WhitelistEntry) string {
	switch {
	case e.BeneficiaryFirstName == "":
		return e.BeneficiaryLastName
	case e.BeneficiaryLastName == "":
		return e.BeneficiaryFirstName
	}
	return e.BeneficiaryFirstName + " " + e.BeneficiaryLastName
}

// arrivals carries batches from the request's goroutine to the screen. The
// request never waits for the screen, and the screen takes everything that
// arrived since it last looked in one message.
type arrivals struct {
	mu        sync.Mutex
	batches   []*packedBatch
	done      bool
	err       error
	abandoned bool
	ready     chan struct{} // one signal: something arrived
}

func newArrivals() *arrivals { return &arrivals{ready: make(chan struct{}, 1)} }

// errAbandoned stops a load the screen no longer waits for.
var errAbandoned = errors.New("whitelist load abandoned")

// put adds a batch; errAbandoned once the screen has moved on.
func (a *arrivals) put(batch *packedBatch) error {
	a.mu.Lock()
	if a.abandoned {
		a.mu.Unlock()
		return errAbandoned
	}
	a.batches = append(a.batches, batch)
	a.mu.Unlock()
	a.signal()
	return nil
}

// finish records the end of the load, with its error.
func (a *arrivals) finish(err error) {
	a.mu.Lock()
	a.done, a.err = true, err
	a.mu.Unlock()
	a.signal()
}

// isAbandoned reports whether the screen has moved on.
func (a *arrivals) isAbandoned() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.abandoned
}

// abandon makes the request stop at its next batch.
func (a *arrivals) abandon() {
	a.mu.Lock()
	a.abandoned = true
	a.mu.Unlock()
}

func (a *arrivals) signal() {
	select {
	case a.ready <- struct{}{}:
	default:
	}
}

// take waits until something arrived and returns all of it.
func (a *arrivals) take() (batches []*packedBatch, done bool, err error) {
	for {
		a.mu.Lock()
		if len(a.batches) > 0 || a.done {
			batches, done, err = a.batches, a.done, a.err
			a.batches = nil
			a.mu.Unlock()
			return batches, done, err
		}
		a.mu.Unlock()
		<-a.ready
	}
}

// entriesArrived is what arrived of the load with request id ID; Done is
// set on the last one, with the load's error.
type entriesArrived struct {
	ID      ui.RequestID
	Batches []*packedBatch
	Done    bool
	Err     error
}

// loadEnded is the request's own answer (the count it handed over). The
// screen learns the end from entriesArrived, which comes after the last
// batch; this answer only ends the spinner.
type loadEnded struct{ entries int }

// receive waits for the next entries of the load id.
func receive(id ui.RequestID, box *arrivals) tea.Cmd {
	return func() tea.Msg {
		batches, done, err := box.take()
		return entriesArrived{ID: id, Batches: batches, Done: done, Err: err}
	}
}

// load starts reading the current currency's whitelist: the request decodes
// batches into a fresh store's arrivals and a receiver brings them to
// Update, re-armed after each.
func (w *Screen) load() tea.Cmd {
	if w.arrivals != nil {
		w.arrivals.abandon()
	}
	client, cur, box := w.Deps.Client, w.currency, newArrivals()
	w.arrivals = box
	w.loading, w.fresh, w.incomplete = true, true, false
	cmd := ui.Start(w.Requests, &w.loadID, func(ctx context.Context) (loadEnded, error) {
		// The load's own peak is not held back by the last one's limit.
		releaseMemoryLimit()
		n := 0
		packed := startPacking(box)
		err := client.WhitelistBatches(ctx, cur, func(batch []apiclient.WhitelistEntry) error {
			n += len(batch)
			return packed.add(batch)
		})
		packed.finish() // the last batch is in the box before the end is
		box.finish(err)
		if n >= returnMemoryAfter {
			// Reading a long list left about as much garbage as the
			// answer's text and its decoded batches: give it back to the
			// system now, or the process keeps the heap it peaked at.
			debug.FreeOSMemory()
		}
		return loadEnded{entries: n}, err
	})
	return tea.Batch(cmd, receive(w.loadID, box))
}

// arrived takes entries of the load in flight: the first ones replace what
// the table showed, later ones grow it; the last one ends the load. A long
// list's end also settles the memory (settleMemory), once the screen holds
// every entry and the batches that brought them are garbage.
func (w *Screen) arrived(msg entriesArrived) tea.Cmd {
	cmd := w.take(msg)
	if msg.Done && msg.ID == w.loadID && w.store != nil && w.store.len() >= returnMemoryAfter {
		return tea.Batch(cmd, settleMemory)
	}
	return cmd
}

// take applies an arrival.
func (w *Screen) take(msg entriesArrived) tea.Cmd {
	if msg.ID != w.loadID || !w.loading {
		return nil
	}
	for _, batch := range msg.Batches {
		if w.fresh {
			w.setStore(&entryStore{})
			w.fresh, w.loadErr = false, nil
		}
		w.store.add(batch)
	}
	w.syncDelete()
	if len(msg.Batches) > 0 {
		w.table.Grow(w.store.len())
		w.sizeTable()
	}
	if !msg.Done {
		w.table.SetLoading(true)
		return receive(msg.ID, w.arrivals)
	}
	w.loading = false
	w.arrivals = nil
	w.table.SetLoading(false)
	if w.fresh { // nothing arrived: an empty list or a failure before any entry
		w.setStore(&entryStore{})
		w.fresh, w.loadErr = false, nil
	}
	err := msg.Err
	if err == nil {
		return nil
	}
	if w.store.len() == 0 {
		w.loadErr = err
		w.loadErrText = sanitize.Text(ui.CutText(apiclient.ErrorMessage(err), ui.MaxMessageText))
		return screenkit.ReadFailed("loading the whitelist", err, 403)
	}
	// Some entries arrived: they stay, marked as a part of the list.
	w.incomplete = true
	if errors.Is(err, context.Canceled) {
		n := ui.FormatCount(w.store.len())
		return ui.Notify(theme.ToneWarn, fmt.Sprintf("whitelist load stopped: showing the first %s %s (%s reloads)",
			n, screenkit.Plural(w.store.len(), "entry", "entries"), keymap.Key("global.refresh")))
	}
	return screenkit.Failed("loading the whole whitelist", err)
}

// setStore shows store in the table: its cells are read from the packed
// entries, never copied.
func (w *Screen) setStore(store *entryStore) {
	w.store = store
	w.table.SetSource(store.len(), store.entryCell)
	w.sizeTable()
	w.syncDelete()
}

// countText says how many entries are shown, and whether that is all.
func (w *Screen) countText() string {
	n := w.store.len()
	count := ui.FormatCount(n)
	switch {
	case w.loadErr != nil:
		// The list was not read: a count would claim there are none.
		return "not loaded"
	case w.loading && !w.fresh:
		return count + " approved " + screenkit.Plural(n, "address", "addresses") + " so far · esc stops"
	case w.incomplete:
		return count + " approved " + screenkit.Plural(n, "address", "addresses") + " — incomplete, r reloads"
	}
	return count + " approved withdrawal " + screenkit.Plural(n, "address", "addresses")
}
