package sandbox

import (
	"io"
	"strings"
	"testing"
)

// endless is a fixture's opening followed by whitespace without end,
// counting what was read of it.
type endless struct {
	head string
	read int64
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if e.read < int64(len(e.head)) {
			p[n] = e.head[e.read]
		} else {
			p[n] = ' '
		}
		n++
		e.read++
	}
	return n, nil
}

// An import checks size and shape while it reads: an oversized file is
// refused once past the limit, not after being read whole, and a wrong
// format, an unknown member or a bad element at the start is refused
// without reading what follows.
func TestFixtureIsCheckedWhileItIsRead(t *testing.T) {
	const limit = 4 << 20
	big := &endless{head: `{"format":"cardterm-sandbox","version":1,"users":[`}
	if _, err := decodeFixtureWithin(big, limit); err == nil || !strings.Contains(err.Error(), "larger than 4 MiB") {
		t.Fatalf("an endless fixture: %v", err)
	}
	if big.read > limit+(1<<20) {
		t.Errorf("read %d bytes of an endless fixture; the limit is %d", big.read, limit)
	}
	for head, want := range map[string]string{
		`{"format":"other",`:                                   `format: must be "cardterm-sandbox"`,
		`{"version":2,`:                                        "version: version 2 is not supported",
		`{"format":"cardterm-sandbox","extra":[`:               `unknown member "extra"`,
		`{"format":"cardterm-sandbox","users":[{"id":1},`:      "users[0].id: must be string, not number",
		`{"format":"cardterm-sandbox","users":[{"nickname":1}`: `users[0]: unknown member "nickname"`,
		`["cardterm-sandbox",`:                                 "one JSON object",
	} {
		in := &endless{head: head}
		_, err := decodeFixtureWithin(io.LimitReader(in, limit), limit)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s…: %v; want %q", head, err, want)
		}
		if in.read > 64<<10 {
			t.Errorf("%s…: read %d bytes before refusing", head, in.read)
		}
	}
}
