package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Record keys of a data directory (store.go).
func userKey(id string) string { return "user/" + id }

func whitelistKey(userID string, seq int) string {
	return fmt.Sprintf("whitelist/%s/%016x", userID, seq)
}

func partnerKey(k backendKey) string { return "webhooks/" + k.Tenant + "/" + k.Env }

// A partner's events and deliveries are records of their own, below its
// key: a new event writes itself, not the partner's whole history.
func eventKey(k backendKey, seq int) string {
	return fmt.Sprintf("%s/event/%016x", partnerKey(k), seq)
}

func deliveryKey(k backendKey, hookID string, seq int) string {
	return fmt.Sprintf("%s/delivery/%s/%016x", partnerKey(k), hookID, seq)
}

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
		home := backendKey{p.Tenant, p.Environment, "eu"}
		for i, e := range p.Events {
			if err := put(eventKey(home, i+1), e); err != nil {
				return nil, err
			}
		}
		p.Events = nil
		p.Configurations = slices.Clone(p.Configurations)
		for i := range p.Configurations {
			h := &p.Configurations[i]
			for j, d := range h.Deliveries {
				if err := put(deliveryKey(home, h.ID, j+1), d); err != nil {
					return nil, err
				}
			}
			h.Deliveries = nil
		}
		if err := put(partnerKey(home), p); err != nil {
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

// jsonProblem turns a decoding error into a fixtureError naming where.
func jsonProblem(in *fixtureReader, path string, err error) error {
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
	case errors.Is(err, errFixtureTooLarge):
		return fixtureProblem("file", "larger than %d MiB: refused after reading that much", in.limit>>20)
	case errors.As(err, &syntax):
		return fixtureProblem(fmt.Sprintf("line %d", in.lineAt(syntax.Offset)), "not valid JSON: %v", syntax)
	case errors.As(err, &typ):
		return fixtureProblem(join(typ.Field), "must be %s, not %s", typ.Type, typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fixtureProblem(join(""), "unknown member %s (the fixture's names are in README.md)", strings.TrimPrefix(err.Error(), "json: unknown field "))
	case errors.Is(err, io.EOF) && in.read == 0:
		return fixtureProblem("line 1", "the file is empty")
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fixtureProblem(fmt.Sprintf("line %d", in.lineAt(in.read)), "the file ends before the JSON does")
	}
	where := path
	if where == "" {
		where = "file"
	}
	return fixtureProblem(where, "%v", err)
}
