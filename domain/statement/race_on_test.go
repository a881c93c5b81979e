//go:build race

package statement

// raceDetector says the tests run under -race, which multiplies the cost
// of the 100,000-transaction export by about a hundred; that test runs in
// the plain run (go test ./...) and is left out of the race run, which is
// for the concurrent walk and writer.
const raceDetector = true
