package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Record keys of a data directory (store.go).
func userKey(id string) string { return "user/" + id }

func whitelistKey(userID string, seq int) string {
	return fmt.Sprintf("whitelist/%s/%016x", userID, seq)
}

func partnerKey(k backendKey) string { return "webhooks/" + k.Tenant + "/" + k.Env }

func consentKey(k backendKey) string { return "consent/" + k.String() }

func pinKey(cardID string) string { return "pin/" + cardID }

// fixtureRecords splits f into a data directory's records.
func fixtureRecords(f *fixture) (map[string][]byte, error) {
	out := map[string][]byte{}
	put := func(key string, v any) error {
		b, err := json.Marshal(v)
		out[key] = b
		return err
	}
	for _, u := range f.Users {
		if w := u.Wallets; w != nil {
			for _, e := range w.Whitelist {
				if err := put(whitelistKey(u.ID, e.Seq), e); err != nil {
					return nil, err
				}
			}
			apart := *w
			apart.Whitelist = nil
			u.Wallets = &apart
		}
		if err := put(userKey(u.ID), u); err != nil {
			return nil, err
		}
	}
	for _, p := range f.Webhooks {
		if err := put(partnerKey(backendKey{p.Tenant, p.Environment, "eu"}), p); err != nil {
			return nil, err
		}
	}
	for _, c := range f.Consent {
		if err := put(consentKey(backendKey{c.Tenant, c.Environment, c.Region}), c); err != nil {
			return nil, err
		}
	}
	for _, p := range f.PINs {
		if err := put(pinKey(p.CardID), p); err != nil {
			return nil, err
		}
	}
	for _, sess := range f.Sessions {
		if err := put(sessionKey(sess.Kind, sess.Key), sess); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// writeFixture writes f as an indented JSON file.
func writeFixture(w io.Writer, f *fixture) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// decoderOf is a JSON decoder that refuses unknown members.
func decoderOf(r io.Reader) *json.Decoder {
	d := json.NewDecoder(r)
	d.DisallowUnknownFields()
	return d
}

// maxFixtureBytes bounds a fixture file (a 100,000-entry whitelist is
// about 30 MB).
const maxFixtureBytes = 512 << 20

// decodeFixture reads a fixture file strictly: a problem is reported with
// the JSON path of the part it is in (users[2].card.status) or the line
// of a syntax error.
func decodeFixture(r io.Reader) (*fixture, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFixtureBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFixtureBytes {
		return nil, fmt.Errorf("larger than %d MiB", maxFixtureBytes>>20)
	}
	var top struct {
		Format   string            `json:"format"`
		Version  int               `json:"version"`
		Users    []json.RawMessage `json:"users"`
		Webhooks []json.RawMessage `json:"webhooks"`
		Consent  []json.RawMessage `json:"consent"`
		PINs     []json.RawMessage `json:"pins"`
		Sessions []json.RawMessage `json:"sessions"`
	}
	if err := decoderOf(bytes.NewReader(data)).Decode(&top); err != nil {
		return nil, jsonProblem(data, "", err)
	}
	f := &fixture{Format: top.Format, Version: top.Version}
	if err := decodeParts(data, "users", top.Users, &f.Users); err != nil {
		return nil, err
	}
	if err := decodeParts(data, "webhooks", top.Webhooks, &f.Webhooks); err != nil {
		return nil, err
	}
	if err := decodeParts(data, "consent", top.Consent, &f.Consent); err != nil {
		return nil, err
	}
	if err := decodeParts(data, "pins", top.PINs, &f.PINs); err != nil {
		return nil, err
	}
	if err := decodeParts(data, "sessions", top.Sessions, &f.Sessions); err != nil {
		return nil, err
	}
	return f, nil
}

// decodeParts decodes each element of one of the fixture's lists.
func decodeParts[T any](data []byte, name string, raw []json.RawMessage, out *[]T) error {
	*out = make([]T, 0, len(raw))
	for i, r := range raw {
		var v T
		if err := decoderOf(bytes.NewReader(r)).Decode(&v); err != nil {
			return jsonProblem(data, fmt.Sprintf("%s[%d]", name, i), err)
		}
		*out = append(*out, v)
	}
	return nil
}

// jsonProblem turns a decoding error into a fixtureError naming where.
func jsonProblem(data []byte, path string, err error) error {
	join := func(field string) string {
		switch {
		case path == "":
			return field
		case field == "":
			return path
		}
		return path + "." + field
	}
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		line := 1 + bytes.Count(data[:min(int(syntax.Offset), len(data))], []byte("\n"))
		return fixtureProblem(fmt.Sprintf("line %d", line), "not valid JSON: %v", syntax)
	case errors.As(err, &typ):
		return fixtureProblem(join(typ.Field), "must be %s, not %s", typ.Type, typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fixtureProblem(join(""), "unknown member %s (the fixture's names are in README.md)", strings.TrimPrefix(err.Error(), "json: unknown field "))
	case errors.Is(err, io.EOF):
		return fixtureProblem("line 1", "the file is empty")
	}
	where := path
	if where == "" {
		where = "file"
	}
	return fixtureProblem(where, "%v", err)
}
