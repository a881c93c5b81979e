package actionlog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"unicode/utf8"
)

// maxField bounds each text field of an entry as written: a case file or
// a gateway can hand the console a 700 kB id or ticket, and a line the
// reader cannot read would stop verify-log and every later append. What
// is cut is kept as its SHA-256, so the entry still proves which value it
// was.
const maxField = 512

// bounded returns e with every field over maxField bytes cut.
func bounded(e Entry) Entry {
	for _, field := range []*string{
		&e.Agent, &e.Ticket, &e.ClientKey, &e.Environment, &e.Region, &e.UserID,
		&e.OnboardingID, &e.Action, &e.Screen, &e.Request, &e.Outcome,
	} {
		*field = cutField(*field)
	}
	return e
}

// cutField keeps the start of a long value (cut on a character boundary)
// and says how long it was and the SHA-256 of the whole value.
func cutField(s string) string {
	if len(s) <= maxField {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	keep := maxField - 120 // room for the note
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return fmt.Sprintf("%s… [cut: %d bytes, sha256 %s]", s[:keep], len(s), hex.EncodeToString(sum[:]))
}
