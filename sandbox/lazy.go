package sandbox

import (
	"regexp"
	"sync"
)

// The sandbox's tables, patterns and templates are made at their first
// use. The Go runtime initialises every linked package before main, on
// every start of the app (`cardterm --version` included), whether or not
// it serves the sandbox; a package-level map, call or sync.OnceValue runs
// then, while a lazy or lazyRegexp written as a composite literal is laid
// out by the compiler and costs nothing until get. (The app's packages
// share domain/lazy for this; the sandbox imports nothing of ours.)

// lazy is a T made by build on the first get and shared after; get is
// safe from the server's many goroutines at once.
type lazy[T any] struct {
	build func() T

	once  sync.Once
	value T
}

// get returns the value, building it on the first call.
func (l *lazy[T]) get() T {
	l.once.Do(func() { l.value = l.build() })
	return l.value
}

// lazyRegexp is pattern compiled on the first get.
type lazyRegexp struct {
	pattern string

	once     sync.Once
	compiled *regexp.Regexp
}

// get returns the compiled pattern, compiling it on the first call.
func (r *lazyRegexp) get() *regexp.Regexp {
	r.once.Do(func() { r.compiled = regexp.MustCompile(r.pattern) })
	return r.compiled
}
