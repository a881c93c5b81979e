// Package guard is the card holder's guard rules: when a transaction
// matches (a merchant, a category, a country, an amount over a limit,
// declines counted within a time window) a rule notifies, or freezes the
// card, asking first unless it says to act alone. The gateway offers no
// card controls beyond freezing, so rules run on this machine over the
// transactions it lists: in the app while it runs, headless with
// `cardterm guard`, and as a dry run over the history. Rules are a YAML
// file in the profile's folder, read node by node so a mistake is named
// by its line and field.
package guard

import (
	"path/filepath"
	"strings"
	"time"

	"cardterm/domain/lazy"
)

// Actions a rule takes.
const (
	Notify = "notify"
	Freeze = "freeze"
)

// DefaultCooldown is how long after a rule froze the card before an
// unfreeze is offered, when the rule does not say.
const DefaultCooldown = 15 * time.Minute

// Rule is one guard rule.
type Rule struct {
	Name string
	// Line is where the rule starts in its file.
	Line int
	// What a transaction must match; an empty field matches anything.
	Merchant   string // a part of the merchant's name, any letter case
	Category   string // the list's category word or the category's name
	Country    string // the merchant's two-letter country
	Abroad     bool   // the merchant's country is not Home
	AmountOver string // decimal text: more than this (in Currency, when set)
	Currency   string
	// Declines and Within: the rule fires on the Declines-th matching
	// decline within Within (Declines 0: on every matching payment).
	Declines int
	Within   time.Duration
	// Action is Notify or Freeze; Alone freezes without asking.
	Action   string
	Alone    bool
	Cooldown time.Duration
}

// Rules are a profile's rules and the home country "abroad" is judged by.
type Rules struct {
	Home  string
	Rules []Rule
}

// File is the rules' file in a profile's folder.
func File(dir string) string { return filepath.Join(dir, "guard.yaml") }

// Example is the file the rule editor starts from when there is none.
const Example = `# Guard rules: see docs/guard-rules.md.
home: FR            # your country: "abroad" is any other
rules:
  - name: freeze on declines abroad
    declines: 2     # the 2nd matching decline...
    within: 10m     # ...within 10 minutes
    abroad: true
    action: freeze  # or notify
    alone: true     # freeze without asking first
    cooldown: 30m   # before an unfreeze is offered
  - name: large payment
    amount_over: "500"
    currency: EUR
    action: notify
`

var countryRE = lazy.Regexp{Pattern: `^[A-Z]{2}$`}

// CountryOf is the merchant's country: the two capital letters that end
// its name and location ("Apple Store, New York US"), "" when none.
func CountryOf(merchant string) string {
	merchant = strings.TrimSpace(merchant)
	i := strings.LastIndexAny(merchant, " ,")
	if last := merchant[i+1:]; countryRE.Get().MatchString(last) {
		return last
	}
	return ""
}
