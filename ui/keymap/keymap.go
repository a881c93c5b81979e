// Package keymap names every action a key runs (card.freeze, global.help)
// and holds the keys in force for each: the registry's defaults, less
// and plus what the user's keys.yaml says. Screens and the root build
// their key.Bindings through Bind, so the footer, the help, the palette
// and the accessible mode all show the keys in force.
package keymap

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"

	"cardterm/domain/lazy"
)

// Action is one thing a key does.
type Action struct {
	// Name is stable: keys.yaml and `cardterm keys` use it.
	Name string
	// Keys are the key names key.Matches compares, the first one the one
	// the palette presses.
	Keys []string
	// HelpKeys is how the help writes the keys ("0-9"); empty means the
	// keys joined by "/".
	HelpKeys string
	// Help is the short words of the footer and the help.
	Help string
	// Title is the longer words of the palette.
	Title string
	// Source is where the keys in force come from: "" for the default,
	// else the keys file and line.
	Source string
}

// Context is the part of the name before the dot: the screen or "global".
func (a Action) Context() string {
	context, _, _ := strings.Cut(a.Name, ".")
	return context
}

// HelpKey is the key column of the help for the keys in force.
func (a Action) HelpKey() string {
	if a.HelpKeys != "" {
		return a.HelpKeys
	}
	return strings.Join(a.Keys, "/")
}

var (
	mu sync.RWMutex
	// used is what Use put in force; nil: the registry's defaults, made
	// at their first use rather than at every start.
	used     map[string]Action
	defaults = lazy.Value[map[string]Action]{New: registryDefaults}
)

// inForce is the actions with their keys in force. Call with mu held.
func inForce() map[string]Action {
	if used != nil {
		return used
	}
	return defaults.Get()
}

// registryDefaults indexes the registry by name.
func registryDefaults() map[string]Action {
	byName := map[string]Action{}
	for _, table := range contexts {
		for _, action := range table {
			if _, twice := byName[action.Name]; twice {
				panic("keymap: action " + action.Name + " registered twice")
			}
			byName[action.Name] = action
		}
	}
	return byName
}

// Bind is the binding of the named action with the keys in force. An
// unknown name is a programming error: every test that builds the key map
// finds it.
func Bind(name string) key.Binding {
	action, ok := Lookup(name)
	if !ok {
		panic(fmt.Sprintf("keymap: no action named %q in the registry", name))
	}
	return key.NewBinding(key.WithKeys(action.Keys...), key.WithHelp(action.HelpKey(), action.Help))
}

// Key is how help writes the named action's keys in force ("r", "↑/k"),
// for a message that tells which key to press: a user's keys file may
// have moved it.
func Key(name string) string { return Bind(name).Help().Key }

// Lookup is the named action with its keys in force.
func Lookup(name string) (Action, bool) {
	mu.RLock()
	defer mu.RUnlock()
	action, ok := inForce()[name]
	return action, ok
}

// Of is the action a binding was built for (its help words and keys say
// which), so the palette can give its title; ok is false for bindings
// outside the registry. Screens share bindings (V "save a view" on three),
// so the action of context (a screen's id, "global") is preferred; a
// binding several other actions share with different titles names none.
func Of(binding key.Binding, context string) (Action, bool) {
	mu.RLock()
	defer mu.RUnlock()
	help := binding.Help()
	keys := binding.Keys()
	var found []Action
	for _, action := range inForce() {
		if action.Help == help.Desc && action.HelpKey() == help.Key && len(keys) > 0 && len(action.Keys) > 0 && action.Keys[0] == keys[0] {
			if action.Context() == context {
				return action, true
			}
			found = append(found, action)
		}
	}
	if len(found) == 0 {
		return Action{}, false
	}
	for _, action := range found[1:] {
		if action.Title != found[0].Title {
			return Action{}, false
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Name < found[j].Name })
	return found[0], true
}

// All is every action with its keys in force, by name.
func All() []Action {
	mu.RLock()
	defer mu.RUnlock()
	all := make([]Action, 0, len(inForce()))
	for _, action := range inForce() {
		all = append(all, action)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

// Use puts the keys of a loaded file in force (start-up, before any key
// map is built); Use(nil) restores the defaults.
func Use(file *File) {
	var next map[string]Action
	if file != nil {
		next = registryDefaults()
		for _, binding := range file.Bindings {
			action := next[binding.Action]
			action.Keys, action.HelpKeys = binding.Keys, ""
			action.Source = fmt.Sprintf("%s:%d", file.Path, binding.Line)
			next[binding.Action] = action
		}
	}
	mu.Lock()
	used = next
	mu.Unlock()
}
