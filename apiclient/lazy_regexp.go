package apiclient

import (
	"regexp"
	"sync"
)

// lazyRegexp is a pattern compiled at its first use. A package-level
// regexp.MustCompile or sync.OnceValue runs before main on every start of
// the app; a lazyRegexp written as a composite literal is laid out by the
// compiler and costs nothing until get. (The app's packages share
// domain/lazy for this; the client imports nothing of ours.)
type lazyRegexp struct {
	pattern string

	once     sync.Once
	compiled *regexp.Regexp
}

// get returns the compiled pattern, compiling it on the first call; it is
// safe from several goroutines at once.
func (r *lazyRegexp) get() *regexp.Regexp {
	r.once.Do(func() { r.compiled = regexp.MustCompile(r.pattern) })
	return r.compiled
}
