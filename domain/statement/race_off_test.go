//go:build !race

package statement

// raceDetector: see race_on_test.go.
const raceDetector = false
