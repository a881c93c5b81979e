package reproduce

import (
	"encoding/json"
	"net/url"
	"strings"

	"cardterm/apiclient"
	"cardterm/domain/casefile"
	"cardterm/domain/lazy"
)

// record is one JSON record a case kept as evidence: an object of the
// kept text, or one element of a kept array (a page).
type record struct {
	item *casefile.Item
	raw  apiclient.RawJSON
	// screen is the customer screen it was kept on ("Wallets"), "" for
	// the console.
	screen string
}

// trailingComma is a comma left before a closing bracket where the
// console dropped a record's last member (its user agent) on keeping it.
var trailingComma = lazy.Regexp{Pattern: `,(\s*[}\]])`}

// records are the JSON records of c's evidence, oldest kept first, and
// the evidence kept as drawn text (no record to read) by screen.
func records(c *casefile.Case) (out []record, drawn map[string]bool) {
	drawn = map[string]bool{}
	for i := range c.Evidence {
		it := &c.Evidence[i]
		screen := screenOf(it.Title)
		text := strings.TrimSpace(it.Text)
		var v any
		if json.Unmarshal([]byte(text), &v) != nil {
			text = trailingComma.Get().ReplaceAllString(text, "$1")
			if json.Unmarshal([]byte(text), &v) != nil {
				drawn[screen] = true
				continue
			}
		}
		switch v := v.(type) {
		case map[string]any:
			out = append(out, record{item: it, raw: apiclient.RawJSON(text), screen: screen})
		case []any:
			for _, element := range v {
				if _, ok := element.(map[string]any); ok {
					data, _ := json.Marshal(element)
					out = append(out, record{item: it, raw: apiclient.RawJSON(data), screen: screen})
				}
			}
		}
	}
	return out, drawn
}

// screenOf is the customer screen an approved session's evidence was
// kept on: its title reads "… (Wallets screen, approved session…)".
func screenOf(title string) string {
	_, rest, ok := strings.Cut(title, " (")
	for ok {
		if name, _, found := strings.Cut(rest, " screen, approved session"); found && !strings.Contains(name, " ") {
			return name
		}
		_, rest, ok = strings.Cut(rest, " (")
	}
	return ""
}

// has reports whether the record carries any of the members.
func (r record) has(names ...string) bool {
	for _, name := range names {
		if _, ok := r.raw.Field(name); ok {
			return true
		}
	}
	return false
}

// queryOf is a query parameter of the request the evidence came from.
func (r record) queryOf(name string) string {
	_, query, _ := strings.Cut(r.item.Request.Path, "?")
	values, _ := url.ParseQuery(query)
	return values.Get(name)
}
