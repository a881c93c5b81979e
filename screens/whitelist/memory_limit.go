package whitelist

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
)

// After a long list is loaded the process holds it (about 22 MB of heap
// for 100,000 entries) and little else; but each key press and filter
// leaves garbage, and the collector lets the heap grow to twice what is
// live before it collects, so a process that settled at 48 MB after the
// load sat at 68 MB after 200 keys and a filter. holdMemoryNearLive sets
// the runtime's soft memory limit a little above what the process uses
// once the load's garbage is returned: the collector then runs before the
// heap outgrows it and gives freed pages back, so what stays resident is
// the list and a few megabytes. The runtime keeps the collector under half
// the CPU when the limit cannot be kept (a list that grows), and the next
// load lifts the limit first.

// memoryHeadroom is what the process may grow by past its use after a
// load before the collector runs.
const memoryHeadroom = 3 << 20

// holdMemoryNearLive sets the soft memory limit to the Go memory in use
// now (call it right after debug.FreeOSMemory) plus memoryHeadroom.
func holdMemoryNearLive() {
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(samples)
	inUse := samples[0].Value.Uint64() - samples[1].Value.Uint64()
	debug.SetMemoryLimit(int64(inUse) + memoryHeadroom)
}

// releaseMemoryLimit lifts the limit (the runtime's default: none).
func releaseMemoryLimit() { debug.SetMemoryLimit(math.MaxInt64) }
