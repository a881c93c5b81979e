package screenkit

import (
	"strings"
	"sync"
	"time"
	"unicode"

	"cardterm/domain/humantime"
	"cardterm/domain/ledger"
)

// TimeLayout is the one way the app writes a moment: date, minutes and the
// zone, so "18:00" never leaves the reader guessing which 18:00.
const TimeLayout = "2006-01-02 15:04 MST"

// FormatTime writes a gateway timestamp (RFC 3339, with or without
// fractions) in local time with TimeLayout; text that is not a timestamp is
// returned as it is, so nothing the gateway sent is lost.
func FormatTime(ts string) string {
	// Most values of a detail pane are not dates: ParseTime skips them
	// before parsing, whose errors cost allocations on every line.
	if t, ok := ledger.ParseTime(ts); ok {
		return t.Local().Format(TimeLayout)
	}
	return ts
}

// TableTimeLayout is TimeLayout without the zone, for table cells: the
// column's title names the zone once (ZoneTitle), so a narrow column
// keeps every minute.
const TableTimeLayout = "2006-01-02 15:04"

// FormatTableTime writes a gateway timestamp in local time for a table
// cell; text that is not a timestamp is returned as it is.
func FormatTableTime(ts string) string {
	if t, ok := ledger.ParseTime(ts); ok {
		return t.Local().Format(TableTimeLayout)
	}
	return ts
}

// ZoneTitle is a date column's title with the local zone: "Updated (UTC)".
func ZoneTitle(title string) string {
	return title + " (" + time.Now().Local().Format("MST") + ")"
}

// FormatTimeAgo is FormatTime with how far the moment is from now, for
// the moments a reader weighs against the present (a record's last
// change, a consent's grant): "2026-11-18 15:19 UTC (4 days ago)". Text
// that is not a timestamp is returned as it is.
func FormatTimeAgo(ts string, now time.Time) string {
	t, ok := ledger.ParseTime(ts)
	if !ok {
		return ts
	}
	return t.Local().Format(TimeLayout) + " (" + humantime.Relative(t, now) + ")"
}

// labelCacheSize bounds the labels remembered: a gateway sends a few dozen
// wire names, a hostile one cannot grow the cache without end.
const labelCacheSize = 4096

// labelCache is made at the first label (under labelMu): a package map
// is built before main on every start.
var (
	labelMu    sync.Mutex
	labelCache map[string]string
)

// Label turns a wire name into a label in the app's one case style:
// "txHash" → "Tx hash", "authorization_code" → "Authorization code",
// "merchant.name" → "Merchant name". Acronyms stay whole ("ID", "URL").
// Labels are remembered: detail panes label the same names on every
// change of selection.
func Label(name string) string {
	labelMu.Lock()
	label, ok := labelCache[name]
	labelMu.Unlock()
	if ok {
		return label
	}
	label = makeLabel(name)
	labelMu.Lock()
	if labelCache == nil {
		labelCache = make(map[string]string)
	}
	if len(labelCache) >= labelCacheSize {
		clear(labelCache)
	}
	labelCache[strings.Clone(name)] = label
	labelMu.Unlock()
	return label
}

// initialism reports whether a word a wire name writes in lower case is
// one a label writes in capitals.
func initialism(word string) bool {
	switch strings.ToLower(word) {
	case "api", "url", "uri", "mcc", "pan", "ip", "kyc", "evm", "qr", "pin", "ssn", "iban", "http", "jwt":
		return true
	}
	return false
}

func makeLabel(name string) string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	runes := []rune(name)
	for i, r := range runes {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0:
			prevLower := unicode.IsLower(cur[len(cur)-1]) || unicode.IsDigit(cur[len(cur)-1])
			nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if prevLower || nextLower {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	for i, w := range words {
		switch {
		case strings.ToUpper(w) == w && len(w) > 1:
			// An acronym (ID, URL, USDC): kept as it is.
		case initialism(w) || (i == 0 && strings.EqualFold(w, "id")):
			// Written apiKey or mcc on the wire, still an initialism; "id"
			// after a word keeps the app's "Order id".
			words[i] = strings.ToUpper(w)
		case i == 0:
			words[i] = strings.ToUpper(w[:1]) + strings.ToLower(w[1:])
		default:
			words[i] = strings.ToLower(w)
		}
	}
	return strings.Join(words, " ")
}

// Labels labels every path as Label does, except where two different paths
// would read the same ("event_object_id" and "event_object.id" both give
// "Event object id"): those keep their wire names, so no two lines of a
// detail look alike while saying different things.
func Labels(paths []string) []string {
	out := make([]string, len(paths))
	first := make(map[string]string, len(paths)) // label -> the first path that gave it
	clash := map[string]bool{}
	for i, p := range paths {
		out[i] = Label(p)
		if q, ok := first[out[i]]; ok && q != p {
			clash[out[i]] = true
		} else if !ok {
			first[out[i]] = p
		}
	}
	for i, p := range paths {
		if clash[out[i]] {
			out[i] = p
		}
	}
	return out
}
