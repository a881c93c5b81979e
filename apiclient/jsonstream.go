package apiclient

import (
	"errors"
	"io"
)

// Reading a JSON array as it arrives: a 100,000-entry whitelist (about
// 31 MB) is decoded while the body is still being received, without
// holding the whole body first. The reader checks the JSON syntax of each
// element as it finds its end, so the records can then be read with the
// fast scanner of jsonscan.go, which trusts its input.

// errSyntax is a body that is not valid JSON, or not an array where one is
// expected.
var errSyntax = errors.New("invalid JSON")

// maxNesting bounds how deep objects and arrays may nest in an answer, as
// encoding/json bounds it.
const maxNesting = 10000

// streamBufferSize is how much of the body one read asks for.
const streamBufferSize = 256 << 10

// maxStreamElement bounds one element of a list read as it arrives: the
// buffer grows to hold an element whole, and a whitelist entry is a few
// hundred bytes, so a bigger one is an answer to stop reading.
const maxStreamElement = 4 << 20

// errElementTooLarge is an element of a list past maxStreamElement.
var errElementTooLarge = errors.New("list element larger than the limit")

// scanStatus says how far a value could be checked.
type scanStatus uint8

const (
	scanOK    scanStatus = iota // a whole valid value
	scanShort                   // the buffer ends before the value does
	scanBad                     // not valid JSON
)

// eachArrayElement reads the JSON array in r and calls fn with the text of
// each element, in order, as soon as the element has arrived. The texts of
// the elements found in one read are substrings of one string, so a record
// keeping its text costs one copy of the body in all. An error from fn
// stops the reading and is returned; a body that is not a JSON array
// returns errSyntax, and an error reading r is returned as it is.
func eachArrayElement(r io.Reader, fn func(elem string) error) error {
	s := arrayStream{r: r, buf: make([]byte, 0, streamBufferSize)}
	return s.run(fn)
}

// arrayStream is the state of eachArrayElement between reads.
type arrayStream struct {
	r   io.Reader
	buf []byte // unread body: buf[pos:]
	pos int
	eof bool
	// bounds are the start and end offsets (in buf) of the elements found
	// in the last read; reused from read to read.
	bounds []int
}

func (s *arrayStream) run(fn func(string) error) error {
	// The opening bracket.
	for {
		i := skipSpaceBytes(s.buf, s.pos)
		if i < len(s.buf) && s.buf[i] == 'n' {
			// null reads as an empty list, as encoding/json reads it.
			s.pos = i
			return s.null()
		}
		if i < len(s.buf) {
			if s.buf[i] != '[' {
				return errSyntax
			}
			s.pos = i + 1
			break
		}
		if s.eof {
			return errEmptyBody
		}
		s.pos = i
		if err := s.fill(); err != nil {
			return err
		}
	}
	first := true
	for {
		end, closed, status := s.elements(first)
		if len(s.bounds) > 0 {
			first = false
			// One string for every element of this read.
			text := string(s.buf[s.bounds[0]:s.bounds[len(s.bounds)-1]])
			base := s.bounds[0]
			for k := 0; k < len(s.bounds); k += 2 {
				if err := fn(text[s.bounds[k]-base : s.bounds[k+1]-base]); err != nil {
					return err
				}
			}
		}
		s.pos = end
		switch {
		case status == scanBad:
			return errSyntax
		case closed:
			return s.onlySpaceLeft()
		}
		if err := s.fill(); err != nil {
			return err
		}
	}
}

// null reads a body that is null and white space.
func (s *arrayStream) null() error {
	for len(s.buf)-s.pos < len("null") && !s.eof {
		if err := s.fill(); err != nil {
			return err
		}
	}
	if _, st := scanLiteral(s.buf, s.pos, "null"); st != scanOK {
		return errSyntax
	}
	s.pos += len("null")
	return s.onlySpaceLeft()
}

// onlySpaceLeft reads the rest of the body, which may only be white space.
func (s *arrayStream) onlySpaceLeft() error {
	for {
		i := skipSpaceBytes(s.buf, s.pos)
		if i < len(s.buf) {
			return errSyntax
		}
		if s.eof {
			return nil
		}
		s.pos = i
		if err := s.fill(); err != nil {
			return err
		}
	}
}

// elements finds the complete elements in buf[pos:], recording their
// bounds. It returns where reading stopped (the start of what needs more
// data), whether the closing bracket was reached, and scanBad for a syntax
// error.
func (s *arrayStream) elements(first bool) (end int, closed bool, status scanStatus) {
	s.bounds = s.bounds[:0]
	b, i := s.buf, s.pos
	for {
		j := skipSpaceBytes(b, i)
		if j >= len(b) {
			return i, false, scanShort
		}
		if b[j] == ']' {
			// Here only after "[" or an element: "[1,]" fails below, as
			// the value after the comma.
			return j + 1, true, scanOK
		}
		if !first {
			// A comma separates this element from the previous one.
			if b[j] != ',' {
				return i, false, scanBad
			}
			j = skipSpaceBytes(b, j+1)
			if j >= len(b) {
				return i, false, scanShort
			}
		}
		vend, st := scanValue(b, j, 1) // the array is the first level
		if st != scanOK {
			return i, false, st
		}
		// A number needs what follows it to know where it ends.
		if vend >= len(b) {
			return i, false, scanShort
		}
		s.bounds = append(s.bounds, j, vend)
		first = false
		i = vend
	}
}

// fill keeps the unread text, moved to the front of the buffer, and reads
// more after it, growing the buffer only for an element larger than it.
// At the end of the body with unfinished text it returns errSyntax.
func (s *arrayStream) fill() error {
	if s.eof {
		return errSyntax
	}
	rest := len(s.buf) - s.pos
	if s.pos > 0 {
		copy(s.buf, s.buf[s.pos:])
		s.buf = s.buf[:rest]
		s.pos = 0
	}
	if len(s.buf) == cap(s.buf) {
		if cap(s.buf) >= maxStreamElement {
			return errElementTooLarge
		}
		grown := make([]byte, len(s.buf), 2*cap(s.buf))
		copy(grown, s.buf)
		s.buf = grown
	}
	for {
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if err == io.EOF {
			s.eof = true
			return nil
		}
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
	}
}
