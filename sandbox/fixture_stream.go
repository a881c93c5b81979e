package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// A fixture is read as it arrives (`cardterm sandbox import`, a data
// directory's import): its size is counted while reading and the file is
// refused the moment it passes maxFixtureBytes; its shape is checked
// member by member (format and version as soon as they are read, an
// unknown member at once, each user, webhook, consent, PIN and session
// decoded strictly when its turn comes), so a bad or oversized file is
// refused without being held whole. What is kept is only the decoded
// fixture.

// maxFixtureBytes bounds a fixture file (a 100,000-entry whitelist is
// about 30 MB).
const maxFixtureBytes = 512 << 20

// errFixtureTooLarge stops reading past maxFixtureBytes.
var errFixtureTooLarge = errors.New("the fixture is too large")

// decodeFixture reads a fixture file strictly: a problem is reported with
// the JSON path of the part it is in (users[2].card.status) or the line
// of a syntax error.
func decodeFixture(r io.Reader) (*fixture, error) {
	return decodeFixtureWithin(r, maxFixtureBytes)
}

// decodeFixtureWithin is decodeFixture with a size limit of its own.
func decodeFixtureWithin(r io.Reader, limit int64) (*fixture, error) {
	in := &fixtureReader{r: r, limit: limit}
	dec := decoderOf(in)
	if err := expectDelim(dec, '{', "the file must hold one JSON object"); err != nil {
		return nil, jsonProblem(in, "", err)
	}
	f := &fixture{}
	var err error
	for dec.More() && err == nil {
		var tok json.Token
		if tok, err = dec.Token(); err != nil {
			break
		}
		name, _ := tok.(string)
		switch name {
		case "format":
			if err = dec.Decode(&f.Format); err == nil && f.Format != fixtureFormat {
				return nil, fixtureProblem("format", "must be %q (this is not a cardterm sandbox fixture)", fixtureFormat)
			}
		case "version":
			if err = dec.Decode(&f.Version); err == nil && f.Version != fixtureVersion {
				return nil, fixtureProblem("version", "version %d is not supported (this cardterm reads version %d)", f.Version, fixtureVersion)
			}
		case "users":
			err = decodeList(dec, in, name, &f.Users)
		case "webhooks":
			err = decodeList(dec, in, name, &f.Webhooks)
		case "consent":
			err = decodeList(dec, in, name, &f.Consent)
		case "pins":
			err = decodeList(dec, in, name, &f.PINs)
		case "sessions":
			err = decodeList(dec, in, name, &f.Sessions)
		default:
			return nil, fixtureProblem("", "unknown member %q (the fixture's names are in README.md)", name)
		}
		if err != nil {
			var problem *fixtureError
			if errors.As(err, &problem) {
				return nil, err
			}
			return nil, jsonProblem(in, name, err)
		}
	}
	if err == nil {
		err = expectDelim(dec, '}', "the object does not end")
	}
	if err == nil {
		if _, more := dec.Token(); !errors.Is(more, io.EOF) {
			err = errors.New("something follows the fixture's object")
		}
	}
	if err != nil {
		return nil, jsonProblem(in, "", err)
	}
	if f.Users == nil {
		f.Users = []fixtureUser{}
	}
	if f.Webhooks == nil {
		f.Webhooks = []fixturePartner{}
	}
	if f.Consent == nil {
		f.Consent = []fixtureConsent{}
	}
	if f.PINs == nil {
		f.PINs = []fixturePIN{}
	}
	if f.Sessions == nil {
		f.Sessions = []fixtureSession{}
	}
	return f, nil
}

// decodeList decodes one of the fixture's lists element by element, as
// they arrive; null is an empty list.
func decodeList[T any](dec *json.Decoder, in *fixtureReader, name string, out *[]T) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		*out = []T{}
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return fixtureProblem(name, "must be a list")
	}
	*out = []T{}
	for i := 0; dec.More(); i++ {
		var v T
		if err := dec.Decode(&v); err != nil {
			return jsonProblem(in, fmt.Sprintf("%s[%d]", name, i), err)
		}
		*out = append(*out, v)
	}
	_, err = dec.Token() // ]
	return err
}

// expectDelim reads the next token, which must be delim.
func expectDelim(dec *json.Decoder, delim json.Delim, why string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != delim {
		return errors.New(why)
	}
	return nil
}

// fixtureReader counts what is read, refuses to read past limit, and
// remembers where lines start near the reading point (the last
// recentBytes), so a syntax error names its line.
type fixtureReader struct {
	r     io.Reader
	limit int64
	read  int64
	lines int   // line breaks before recent
	from  int64 // offset of recent's first byte
	// recent is the latest bytes read, at most 2*recentBytes.
	recent []byte
}

// recentBytes is how much of the file a syntax error's line is counted
// in; before that, line breaks are only counted.
const recentBytes = 1 << 20

func (f *fixtureReader) Read(p []byte) (int, error) {
	if f.read > f.limit {
		return 0, errFixtureTooLarge
	}
	if room := f.limit - f.read + 1; int64(len(p)) > room {
		p = p[:room] // never more than one byte past the limit
	}
	n, err := f.r.Read(p)
	f.read += int64(n)
	f.recent = append(f.recent, p[:n]...)
	if len(f.recent) > 2*recentBytes {
		drop := len(f.recent) - recentBytes
		f.lines += bytes.Count(f.recent[:drop], []byte("\n"))
		f.from += int64(drop)
		f.recent = append(f.recent[:0], f.recent[drop:]...)
	}
	if f.read > f.limit {
		return n, errFixtureTooLarge
	}
	return n, err
}

// lineAt is the line of byte offset (1 for the first).
func (f *fixtureReader) lineAt(offset int64) int {
	at := min(max(offset-f.from, 0), int64(len(f.recent)))
	return 1 + f.lines + bytes.Count(f.recent[:at], []byte("\n"))
}
