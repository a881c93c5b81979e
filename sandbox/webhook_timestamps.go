package sandbox

import (
	"crypto/sha256"
	"strconv"
	"sync"
	"time"
)

// signingTimes keeps the X-Timestamp last used for each body sent to each
// configuration, so that a body sent there again (a resend, a retry) in
// the same second is signed with a later second: the same timestamp and
// body would give the same signature, which a receiver rightly refuses as
// a replay.
type signingTimes struct {
	mu   sync.Mutex
	last map[[sha256.Size]byte]int64
}

// signingTimesKept bounds the memory: past it, entries older than the
// widest tolerance a receiver should use (an hour) are dropped.
const signingTimesKept = 4096

// stamp is the X-Timestamp for body sent to hookID at at: its unix second,
// or one past the last one used for the same body and configuration.
func (t *signingTimes) stamp(hookID string, body []byte, at time.Time) string {
	h := sha256.New()
	h.Write([]byte(hookID))
	h.Write([]byte{0})
	h.Write(body)
	var key [sha256.Size]byte
	h.Sum(key[:0])
	sec := at.Unix()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.last == nil {
		t.last = map[[sha256.Size]byte]int64{}
	}
	if prev, ok := t.last[key]; ok && sec <= prev {
		sec = prev + 1
	}
	t.last[key] = sec
	if len(t.last) > signingTimesKept {
		for k, v := range t.last {
			if v < at.Unix()-int64(time.Hour/time.Second) {
				delete(t.last, k)
			}
		}
	}
	return strconv.FormatInt(sec, 10)
}
