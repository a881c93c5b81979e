package ui

import (
	"charm.land/bubbles/v2/key"
)

// lineCache keeps one rendered piece of the frame (footer, status bar,
// navigation) with the key of what it shows: a key press that changes
// none of it reuses the string instead of styling it again.
type lineCache struct {
	key  uint64
	text string
	ok   bool
}

// get returns the cached text for key, or renders and keeps it.
func (c *lineCache) get(key uint64, render func() string) string {
	if !c.ok || c.key != key {
		c.key, c.text, c.ok = key, render(), true
	}
	return c.text
}

// frameKey hashes what a piece of the frame depends on.
type frameKey struct{ h uint64 }

// FNV-1a, written out: a key is built on every frame and must not allocate.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func newFrameKey() frameKey { return frameKey{h: fnvOffset} }

func (k *frameKey) str(s string) {
	for i := 0; i < len(s); i++ {
		k.h ^= uint64(s[i])
		k.h *= fnvPrime
	}
	k.h ^= 0xff // end of the string, so "ab"+"c" differs from "a"+"bc"
	k.h *= fnvPrime
}

func (k *frameKey) num(n int) {
	k.h ^= uint64(n)
	k.h *= fnvPrime
}

func (k *frameKey) flag(b bool) {
	if b {
		k.num(1)
	} else {
		k.num(0)
	}
}

// bindings folds what the help shows of bindings into the key.
func (k *frameKey) bindings(bs []key.Binding) {
	for _, b := range bs {
		k.flag(b.Enabled())
		k.str(b.Help().Key)
		k.str(b.Help().Desc)
	}
}
