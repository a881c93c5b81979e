//go:build !race

package screens_test

// raceDetector: see race_on_test.go.
const raceDetector = false
