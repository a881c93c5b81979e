// Package lazy holds package values made at first use.
//
// The Go runtime initialises every linked package before main, on every
// start, `cardterm --version` included. A package-level sync.OnceValue
// allocates its closures then; a Value or Regexp written as a composite
// literal (its New a function literal that captures nothing) is laid out
// by the compiler and costs nothing until Get:
//
//	var tagShape = lazy.Regexp{Pattern: `^[a-z]+$`}
//	var limits = lazy.Value[map[string]int]{New: func() map[string]int {
//		return map[string]int{"card": 4}
//	}}
//
//	tagShape.Get().MatchString(tag)
//
// Get is safe from several goroutines at once. A Value or Regexp must not
// be copied (go vet's copylocks says so).
package lazy

import (
	"regexp"
	"sync"
)

// Value is a T made by New on the first Get and shared after.
type Value[T any] struct {
	// New makes the value. It runs once: should it panic, later Gets
	// return the zero T.
	New func() T

	once  sync.Once
	value T
}

// Get returns the value, making it on the first call.
func (v *Value[T]) Get() T {
	v.once.Do(func() { v.value = v.New() })
	return v.value
}

// Regexp is Pattern compiled on the first Get; a pattern that does not
// compile panics there, as regexp.MustCompile does.
type Regexp struct {
	Pattern string

	once     sync.Once
	compiled *regexp.Regexp
}

// Get returns the compiled pattern, compiling it on the first call.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.compiled = regexp.MustCompile(r.Pattern) })
	return r.compiled
}
