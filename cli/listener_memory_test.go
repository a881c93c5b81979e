package cli

import (
	"bytes"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cardterm/sandbox/webhookreceiver"
)

// The flood of issue 22: 300 unsigned deliveries of 1 MiB each. What the
// listener keeps afterwards (heap in use after two collections, so
// nothing merely unreachable counts) must stay small: no body of a
// rejected delivery is kept.
const (
	floodDeliveries = 300
	floodSenders    = 4
)

// heapAfterGC is the live heap: runtime.ReadMemStats's HeapAlloc after two
// collections (the second frees what the first left to sync.Pool's victim
// cache).
func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// flood posts floodDeliveries unsigned 1 MiB bodies to url from
// floodSenders at once and returns the highest HeapAlloc seen meanwhile
// (sampled every 10 ms; it includes the senders' own garbage).
func flood(t *testing.T, url string) (peak uint64) {
	t.Helper()
	body := []byte(`{"event_type":"card.frozen","pad":"` + strings.Repeat("x", webhookreceiver.MaxBody-37) + `"}`)
	if len(body) != webhookreceiver.MaxBody {
		t.Fatalf("body of %d bytes", len(body))
	}
	var highest atomic.Uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > highest.Load() {
				highest.Store(m.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	client := &http.Client{Timeout: 30 * time.Second}
	var wg sync.WaitGroup
	var rejected atomic.Int32
	for range floodSenders {
		wg.Go(func() {
			for range floodDeliveries / floodSenders {
				resp, err := client.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				if resp.StatusCode == http.StatusUnauthorized {
					rejected.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(done)
	<-sampled
	if rejected.Load() != floodDeliveries {
		t.Fatalf("%d of %d unsigned deliveries rejected", rejected.Load(), floodDeliveries)
	}
	return highest.Load()
}

func TestListenKeepsNoUnsignedBodies(t *testing.T) {
	t.Setenv(webhookKeyEnv, listenKey)
	rl := startListenInProcess(t)
	before := heapAfterGC()
	peak := flood(t, rl.url)
	rl.lines(t, floodDeliveries) // every delivery printed
	after := heapAfterGC()
	grew := int64(after) - int64(before)
	t.Logf("listen: %d unsigned 1 MiB deliveries: heap grew %.1f MiB (live, after GC); peak HeapAlloc %.1f MiB above the start (senders included)",
		floodDeliveries, float64(grew)/(1<<20), float64(int64(peak)-int64(before))/(1<<20))
	if grew > 32<<20 {
		t.Fatalf("listen grew by %.1f MiB, more than 32 MiB", float64(grew)/(1<<20))
	}
}

func TestInAppListenerKeepsNoUnsignedBodies(t *testing.T) {
	t.Setenv(webhookKeyEnv, "")
	gw := withInAppEvents(gateway{label: "SANDBOX", close: func() {}})
	defer gw.close()
	if gw.events.receiver == nil {
		t.Fatal("the in-app listener did not start")
	}
	// The Events screen's part: a subscription (its buffer) whose
	// deliveries are all kept, as its list keeps them.
	deliveries, stop := gw.events.receiver.Subscribe(256)
	defer stop()
	var kept []webhookreceiver.Delivery
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		for d := range deliveries {
			if kept = append(kept, d); len(kept) == floodDeliveries {
				return
			}
		}
	}()
	before := heapAfterGC()
	peak := flood(t, gw.events.url)
	select {
	case <-collected:
	case <-time.After(10 * time.Second):
		t.Fatalf("the subscriber got %d deliveries", len(kept))
	}
	history := gw.events.receiver.History()
	after := heapAfterGC()
	grew := int64(after) - int64(before)
	t.Logf("in-app listener: %d unsigned 1 MiB deliveries, %d in its history and %d held by a subscriber: heap grew %.1f MiB (live, after GC); peak HeapAlloc %.1f MiB above the start (senders included)",
		floodDeliveries, len(history), len(kept), float64(grew)/(1<<20), float64(int64(peak)-int64(before))/(1<<20))
	if grew > 48<<20 {
		t.Fatalf("the in-app listener grew by %.1f MiB, more than 48 MiB", float64(grew)/(1<<20))
	}
	if len(kept) != floodDeliveries || kept[0].Body != nil || kept[0].Size != webhookreceiver.MaxBody {
		t.Fatalf("kept %d; first %+v", len(kept), kept[0].Size)
	}
	runtime.KeepAlive(history)
}
