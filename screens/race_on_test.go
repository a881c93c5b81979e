//go:build race

package screens_test

// raceDetector says the tests run under -race, which makes the walks
// over every view of every screen at three sizes about twenty times
// slower; they draw frames, run no requests concurrently, and run in the
// plain run (go test ./...), so the race run leaves them out.
const raceDetector = true
