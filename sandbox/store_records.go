package sandbox

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	bolt "go.etcd.io/bbolt"
)

// A record is stored as the CRC-32C (Castagnoli, little-endian) of its key
// and JSON, then the JSON: bbolt checksums only its meta pages.

// castagnoli is made at first use: it costs more than the rest of the
// package's initialisation, and most runs keep no store.
var castagnoli = lazy[*crc32.Table]{build: func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }}

func recordSum(key, data []byte) uint32 {
	return crc32.Update(crc32.Checksum(key, castagnoli.get()), castagnoli.get(), data)
}

func sealRecord(key, data []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(data)), recordSum(key, data)), data...)
}

// unsealRecord checks a stored record and returns its JSON.
func unsealRecord(key, stored []byte) ([]byte, error) {
	if len(stored) < 4 || binary.LittleEndian.Uint32(stored) != recordSum(key, stored[4:]) {
		return nil, errors.New("the checksum does not match its contents")
	}
	return stored[4:], nil
}

// putRecords writes records (nil deletes one) in key order: bbolt inserts
// by moving what follows, so 100,000 keys in a map's order take seconds.
func putRecords(b *bolt.Bucket, records map[string][]byte) error {
	for _, k := range slices.Sorted(maps.Keys(records)) {
		var err error
		if v := records[k]; v == nil {
			err = b.Delete([]byte(k))
		} else {
			err = b.Put([]byte(k), sealRecord([]byte(k), v))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// newFixture is a fixture with no changes.
func newFixture() *fixture {
	return &fixture{Format: fixtureFormat, Version: fixtureVersion,
		Users: []fixtureUser{}, Webhooks: []fixturePartner{}, Consent: []fixtureConsent{}, PINs: []fixturePIN{}}
}

// decodeRecord adds one record's JSON to f by its key's kind. Keys sort
// "user/" before "whitelist/", and a partner before the events and
// deliveries below its key, so each finds what it belongs to.
func decodeRecord(f *fixture, key string, data []byte) error {
	kind, rest, _ := strings.Cut(key, "/")
	switch kind {
	case "user":
		return appendStrict(&f.Users, data)
	case "webhooks":
		return decodePartnerRecord(f, strings.Split(rest, "/"), data)
	case "consent":
		return appendStrict(&f.Consent, data)
	case "pin":
		return appendStrict(&f.PINs, data)
	case "session":
		return appendStrict(&f.Sessions, data)
	case "whitelist":
		userID, seq, _ := strings.Cut(rest, "/")
		for i := range f.Users {
			if u := &f.Users[i]; u.ID == userID && seq != "" && u.Wallets != nil {
				return appendStrict(&u.Wallets.Whitelist, data)
			}
		}
		return errors.New("a whitelist entry without its user's wallets")
	}
	return errors.New("unknown record")
}

// decodePartnerRecord adds a partner (tenant/environment), one of its
// events (…/event/seq) or one of a configuration's deliveries
// (…/delivery/webhook id/seq) to f.
func decodePartnerRecord(f *fixture, parts []string, data []byte) error {
	if len(parts) <= 2 {
		return appendStrict(&f.Webhooks, data)
	}
	i := slices.IndexFunc(f.Webhooks, func(p fixturePartner) bool { return p.Tenant == parts[0] && p.Environment == parts[1] })
	seq, err := strconv.ParseUint(parts[len(parts)-1], 16, 63)
	switch {
	case i < 0:
		return errors.New("an event or delivery without its partner")
	case err != nil || seq == 0:
		return errors.New("an event or delivery without its sequence number")
	case len(parts) == 4 && parts[2] == "event":
		if err := appendStrict(&f.Webhooks[i].Events, data); err != nil {
			return err
		}
		f.Webhooks[i].Events[len(f.Webhooks[i].Events)-1].seq = int(seq)
		return nil
	case len(parts) == 5 && parts[2] == "delivery":
		configurations := f.Webhooks[i].Configurations
		j := slices.IndexFunc(configurations, func(h fixtureWebhook) bool { return h.ID == parts[3] })
		if j < 0 {
			return errors.New("a delivery without its webhook configuration")
		}
		if err := appendStrict(&configurations[j].Deliveries, data); err != nil {
			return err
		}
		configurations[j].Deliveries[len(configurations[j].Deliveries)-1].seq = int(seq)
		return nil
	}
	return errors.New("unknown record")
}

// appendStrict decodes one record onto a list, refusing unknown members.
func appendStrict[T any](list *[]T, data []byte) error {
	var v T
	err := decoderOf(bytes.NewReader(data)).Decode(&v)
	if err == nil {
		*list = append(*list, v)
	}
	return err
}

// readFixture reads and checks every record; an error names the record
// and where it lies in the file.
func readFixture(tx *bolt.Tx) (*fixture, error) {
	f, state := newFixture(), tx.Bucket(bucketState)
	if state == nil {
		return nil, storeDamage{tx.DB().Path(), "(no state bucket)"}
	}
	err := state.ForEach(func(k, v []byte) error {
		data, err := unsealRecord(k, v)
		if err == nil {
			err = decodeRecord(f, string(k), data)
		}
		if err != nil {
			return storeDamage{tx.DB().Path(), fmt.Sprintf("%s, in record %q: %v", whereIs(tx, v), k, err)}
		}
		return nil
	})
	return f, err
}

// whereIs says where data lies in the file: bbolt hands out slices of its
// memory map, but may copy a small bucket kept inline in its parent's page,
// whose data is then looked for from that page on.
func whereIs(tx *bolt.Tx, data []byte) string {
	info := tx.DB().Info()
	offset := int64(uintptr(unsafe.Pointer(unsafe.SliceData(data))) - info.Data)
	if len(data) == 0 || offset < 0 || offset >= tx.Size() {
		offset = -1
		if file, err := os.ReadFile(tx.DB().Path()); err == nil && len(data) > 0 {
			from := min(int64(tx.Cursor().Bucket().Root())*int64(info.PageSize), int64(len(file)))
			if i := bytes.Index(file[from:], data); i >= 0 {
				offset = from + int64(i)
			}
		}
	}
	if offset < 0 {
		return "at an unknown offset"
	}
	return fmt.Sprintf("at byte %d (page %d)", offset, offset/int64(info.PageSize))
}

// pageInProblem finds the page a tx.Check problem is about.
var pageInProblem = lazyRegexp{pattern: `(?:page |page\(|pgId:)(\d+)`}

// checkPages runs bbolt's consistency check, each problem with where it is.
func checkPages(tx *bolt.Tx) []string {
	var problems []string
	for err := range tx.Check() { // read to the end: Check's goroutine waits on each send
		where := "(" + err.Error() + ")"
		if m := pageInProblem.get().FindStringSubmatch(err.Error()); m != nil {
			page, _ := strconv.ParseInt(m[1], 10, 64)
			where = fmt.Sprintf("at byte %d (page %d): %v", page*int64(tx.DB().Info().PageSize), page, err)
		}
		problems = append(problems, where)
	}
	return problems
}
