package whitelist

import (
	"math"
	"runtime"
	"runtime/debug"

	tea "charm.land/bubbletea/v2"
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
// load lifts the limit first, and so does typing a filter until its line
// closes.

// memoryHeadroom is what the process may grow by past its use after a
// load before the collector runs.
const memoryHeadroom = 2 << 20

// holdMemoryNearLive sets the soft memory limit to the Go memory in use
// now (call it right after debug.FreeOSMemory) plus memoryHeadroom.
// (runtime.MemStats rather than runtime/metrics, whose table of every
// metric would be built at each start, for this one reading.)
func holdMemoryNearLive() {
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	debug.SetMemoryLimit(int64(stats.Sys-stats.HeapReleased) + memoryHeadroom)
}

// settleMemory is the command that ends a long list's load: the garbage
// of reading it goes back to the system and the limit is held near what
// stays (a command: a collection takes milliseconds, not for Update).
func settleMemory() tea.Msg {
	debug.FreeOSMemory()
	holdMemoryNearLive()
	return nil
}

// liftMemoryLimit is the command that lifts the limit while a filter is
// typed (its index and levels are live, and the collector must not run
// against them at every key); settleMemory holds it again when the
// filter line closes.
func liftMemoryLimit() tea.Msg {
	releaseMemoryLimit()
	return nil
}

// releaseMemoryLimit lifts the limit (the runtime's default: none).
func releaseMemoryLimit() { debug.SetMemoryLimit(math.MaxInt64) }
