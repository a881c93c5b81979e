//go:build !race

package whitelist

// raceDetector is whether the race detector is on: it multiplies the
// resident memory, so resident memory is judged without it.
const raceDetector = false
