// Package runbook runs a support runbook on a case: a plain YAML file
// per kind of ticket that names the facts to gather and drafts the reply
// from them. Seven ship inside cardterm (runbooks/*.yaml); a tenant adds
// or replaces them with files of its own in $XDG_CONFIG_HOME/cardterm/runbooks.
//
// The format (docs/support-cases.md):
//
//	title: Card not working
//	ticket: The customer says the card stopped working.
//	facts: [consent, verification, card, transactions]
//	cannot-tell:
//	  - Card state changes carry no actor or time in this interface.
//	reply: |
//	  Your card ending {card.last4} is {card.status}. {card.advice}
//
// A {fact.value} placeholder is replaced by what the run learnt; a fact
// that could not be gathered leaves a bracketed line saying why, for the
// agent to fill in.
package runbook

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"cardterm/domain/lazy"
)

// Runbook is one kind of ticket.
type Runbook struct {
	// Name is the file's name without .yaml.
	Name   string   `yaml:"-"`
	Title  string   `yaml:"title"`
	Ticket string   `yaml:"ticket"`
	Facts  []string `yaml:"facts"`
	// CannotTell are what the interface cannot answer for this kind of
	// ticket, said on screen and kept with the case.
	CannotTell []string `yaml:"cannot-tell"`
	Reply      string   `yaml:"reply"`
	// Source says where the runbook came from ("built in" or its path).
	Source string `yaml:"-"`
}

//go:embed runbooks/*.yaml
var builtIn embed.FS

// placeholder matches {fact.value}.
var placeholder = lazy.Regexp{Pattern: `\{([a-z]+)\.([A-Za-z0-9]+)\}`}

// Parse reads one runbook file and checks it.
func Parse(name string, data []byte) (Runbook, error) {
	var r Runbook
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&r); err != nil {
		return Runbook{}, fmt.Errorf("runbook %s: %w", name, err)
	}
	r.Name = name
	switch {
	case strings.TrimSpace(r.Title) == "":
		return Runbook{}, fmt.Errorf("runbook %s: a title is required", name)
	case strings.TrimSpace(r.Reply) == "":
		return Runbook{}, fmt.Errorf("runbook %s: a reply is required", name)
	case len(r.Facts) == 0:
		return Runbook{}, fmt.Errorf("runbook %s: name at least one fact (%s)", name, strings.Join(FactNames(), ", "))
	}
	for _, f := range r.Facts {
		if _, ok := gathererOf(f); !ok {
			return Runbook{}, fmt.Errorf("runbook %s: no fact %q (the facts are %s)", name, f, strings.Join(FactNames(), ", "))
		}
	}
	for _, m := range placeholder.Get().FindAllStringSubmatch(r.Reply, -1) {
		if !slices.Contains(r.Facts, m[1]) {
			return Runbook{}, fmt.Errorf("runbook %s: the reply uses {%s.%s} but the facts do not name %s", name, m[1], m[2], m[1])
		}
	}
	return r, nil
}

// Load lists the built-in runbooks and those in dir ("" for none), by
// title; a file in dir replaces a built-in one of the same name. A file
// that does not parse is left out and said in the error, the others load.
func Load(dir string) ([]Runbook, error) {
	byName := map[string]Runbook{}
	entries, _ := fs.ReadDir(builtIn, "runbooks")
	for _, e := range entries {
		data, err := builtIn.ReadFile("runbooks/" + e.Name())
		if err != nil {
			return nil, err
		}
		r, err := Parse(strings.TrimSuffix(e.Name(), ".yaml"), data)
		if err != nil {
			return nil, err // a built-in runbook always parses (TestBuiltInRunbooksParse)
		}
		r.Source = "built in"
		byName[r.Name] = r
	}
	var problems []error
	if dir != "" {
		files, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			problems = append(problems, fmt.Errorf("the runbooks folder: %w", err))
		}
		for _, e := range files {
			ext := filepath.Ext(e.Name())
			if e.IsDir() || (ext != ".yaml" && ext != ".yml") {
				continue
			}
			path := filepath.Join(dir, e.Name())
			data, err := os.ReadFile(path)
			if err == nil {
				var r Runbook
				if r, err = Parse(strings.TrimSuffix(e.Name(), ext), data); err == nil {
					r.Source = path
					byName[r.Name] = r
				}
			}
			if err != nil {
				problems = append(problems, err)
			}
		}
	}
	out := make([]Runbook, 0, len(byName))
	for _, r := range byName {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Runbook) int { return strings.Compare(a.Title, b.Title) })
	return out, errors.Join(problems...)
}

// Result is a run: the facts in the runbook's order and the draft reply.
type Result struct {
	Runbook Runbook
	Facts   []Fact
	Draft   string
}

// Waiting lists the facts that wait for the customer's approval.
func (r Result) Waiting() []string {
	var out []string
	for _, f := range r.Facts {
		if f.Missing == noApproval {
			out = append(out, f.Name)
		}
	}
	return out
}

// Run gathers the runbook's facts in order and drafts the reply.
func Run(ctx context.Context, rb Runbook, src Sources) Result {
	res := Result{Runbook: rb}
	for _, name := range rb.Facts {
		res.Facts = append(res.Facts, Gather(ctx, src, name))
	}
	res.Draft = Draft(rb, res.Facts)
	return res
}

// Draft fills the reply's placeholders from the facts. A value not
// learnt becomes "[fact.value: why]" for the agent to see and fill in.
func Draft(rb Runbook, facts []Fact) string {
	byName := map[string]Fact{}
	for _, f := range facts {
		byName[f.Name] = f
	}
	return strings.TrimSpace(placeholder.Get().ReplaceAllStringFunc(rb.Reply, func(m string) string {
		parts := placeholder.Get().FindStringSubmatch(m)
		f := byName[parts[1]]
		if v, ok := f.Values[parts[2]]; ok {
			return v
		}
		why := f.Missing
		switch why {
		case "":
			why = "not learnt"
		case noApproval:
			why = "after the customer's approval"
		}
		return "[" + parts[1] + "." + parts[2] + ": " + why + "]"
	}))
}
