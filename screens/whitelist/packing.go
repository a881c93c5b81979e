package whitelist

import (
	"cardterm/apiclient"
)

// Packing runs beside the decoding: the request's goroutine decodes the
// answer while a second one packs the batches already decoded (copying
// their fields, compressing their records) and puts them in the arrivals
// box, so a 100,000-entry load costs about what decoding alone costs.

// packingQueue is how many decoded batches may wait to be packed.
const packingQueue = 2

// packing is the packing goroutine of one load.
type packing struct {
	box     *arrivals
	batches chan []apiclient.WhitelistEntry
	done    chan struct{}
}

// startPacking starts packing into box.
func startPacking(box *arrivals) *packing {
	p := &packing{box: box, batches: make(chan []apiclient.WhitelistEntry, packingQueue), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		var pk packer
		for batch := range p.batches {
			if box.isAbandoned() {
				continue // the screen moved on: drain, pack nothing
			}
			_ = box.put(pk.pack(batch)) // errAbandoned: the next batch is skipped
		}
	}()
	return p
}

// add queues a decoded batch; errAbandoned once the screen has moved on,
// which stops the request.
func (p *packing) add(batch []apiclient.WhitelistEntry) error {
	if p.box.isAbandoned() {
		return errAbandoned
	}
	p.batches <- batch
	return nil
}

// finish waits until every queued batch is packed and in the box.
func (p *packing) finish() {
	close(p.batches)
	<-p.done
}
