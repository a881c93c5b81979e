// Package budget keeps a card holder's monthly budgets (overall and per
// spending category, each in one currency) and measures a month's
// spending against them exactly: sums are ledger.Totals, limits decimal
// text, and a share is worked out with rationals, never floats. The
// gateway has no budgets: they are kept in the profile's folder
// (profiledata) and measured over the transactions it lists.
package budget

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"cardterm/domain/lazy"
	"cardterm/domain/profiledata"
)

// Overall is the category of the budget over every category.
const Overall = ""

// Budget is a monthly limit on spending in one currency: over every
// category (Category "") or over one, named as the list names it
// ("GROCERIES") or as the Spending screen does ("Grocery stores,
// supermarkets"), in any letter case.
type Budget struct {
	Currency string `json:"currency"`
	Category string `json:"category,omitempty"`
	// Limit is decimal text ("400.00"), more than zero.
	Limit string `json:"limit"`
}

// Name is how the budget is named on screen: "Overall" or its category.
func (b Budget) Name() string {
	if b.Category == Overall {
		return "Overall"
	}
	return b.Category
}

// Book is every budget of a profile, as kept in its file.
type Book struct {
	Budgets []Budget `json:"budgets"`
}

// File is the book's file in a profile's folder.
func File(dir string) string { return filepath.Join(dir, "budgets.json") }

var (
	currencyRE = lazy.Regexp{Pattern: `^[A-Z]{3}$`}
	limitRE    = lazy.Regexp{Pattern: `^\d{1,15}(\.\d{1,8})?$`}
	digitsRE   = lazy.Regexp{Pattern: `^\d+$`}
)

// Check says what is wrong with a budget, field by field (currency,
// limit); nil when it can be kept.
func Check(b Budget) map[string]string {
	problems := map[string]string{}
	if !currencyRE.Get().MatchString(b.Currency) {
		problems["currency"] = "must be a three-letter currency code such as EUR"
	}
	if !limitRE.Get().MatchString(b.Limit) {
		problems["limit"] = limitProblem(b.Limit)
	} else if r, _ := new(big.Rat).SetString(b.Limit); r.Sign() == 0 {
		problems["limit"] = "must be more than 0"
	}
	if len(b.Category) > 80 {
		problems["category"] = "must be at most 80 characters"
	}
	if len(problems) == 0 {
		return nil
	}
	return problems
}

// limitProblem says why a limit the pattern refuses is wrong: its size,
// when it is otherwise a plain amount, else its form.
func limitProblem(limit string) string {
	whole, fraction, _ := strings.Cut(limit, ".")
	switch {
	case !digitsRE.Get().MatchString(whole) || (strings.Contains(limit, ".") && !digitsRE.Get().MatchString(fraction)):
		return "must be an amount such as 400 or 399.90"
	case len(whole) > 15:
		return "must have at most 15 digits before the point"
	default:
		return "must have at most 8 digits after the point"
	}
}

// Normal is a budget as kept: the currency upper-case, words trimmed.
func Normal(b Budget) Budget {
	return Budget{Currency: strings.ToUpper(strings.TrimSpace(b.Currency)), Category: strings.TrimSpace(b.Category), Limit: strings.TrimSpace(b.Limit)}
}

// same says two budgets are for the same currency and category.
func same(a, b Budget) bool {
	return a.Currency == b.Currency && strings.EqualFold(a.Category, b.Category)
}

// Set keeps b in place of the budget of its currency and category.
func (k *Book) Set(b Budget) {
	for i := range k.Budgets {
		if same(k.Budgets[i], b) {
			k.Budgets[i] = b
			return
		}
	}
	k.Budgets = append(k.Budgets, b)
	sort.SliceStable(k.Budgets, func(i, j int) bool {
		x, y := k.Budgets[i], k.Budgets[j]
		if x.Currency != y.Currency {
			return x.Currency < y.Currency
		}
		return strings.ToLower(x.Category) < strings.ToLower(y.Category)
	})
}

// Remove drops the budget of b's currency and category; false when there
// was none.
func (k *Book) Remove(b Budget) bool {
	for i := range k.Budgets {
		if same(k.Budgets[i], b) {
			k.Budgets = append(k.Budgets[:i], k.Budgets[i+1:]...)
			return true
		}
	}
	return false
}

// Load reads the book; a missing file is an empty book. A budget that
// does not pass Check is refused with its place in the file.
func Load(path string) (Book, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Book{}, nil
	}
	if err != nil {
		return Book{}, err
	}
	var k Book
	if err := json.Unmarshal(data, &k); err != nil {
		return Book{}, fmt.Errorf("%s: %w", path, err)
	}
	for i, b := range k.Budgets {
		for field, problem := range Check(b) {
			return Book{}, fmt.Errorf("%s: budgets[%d].%s %s", path, i, field, problem)
		}
	}
	return k, nil
}

// Save writes the book whole (owner-only, atomically).
func (k Book) Save(path string) error {
	return profiledata.WriteFile(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(k)
	})
}
