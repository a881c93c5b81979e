package keymap

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"cardterm/domain/fileerror"
)

// File is a user's keys.yaml: for each action named, the keys that replace
// its defaults.
//
//	card.freeze: F
//	global.help: ["?", "h"]
type File struct {
	Path     string
	Bindings []FileBinding
}

// FileBinding is one line of the file.
type FileBinding struct {
	Action string
	Keys   []string
	Line   int
}

// Load reads and checks the keys file at path; a missing file is no file
// (nil, nil). An unknown action, a key that is not a key, or two actions
// of one context on one key is refused with the file and line.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	file, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	return file, file.check()
}

// Parse reads a keys file's text; path is for the messages.
func Parse(path string, data []byte) (*File, error) {
	file := &File{Path: path}
	var document yaml.Node
	if err := yaml.Unmarshal(data, &document); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(document.Content) == 0 {
		return file, nil // an empty file binds nothing
	}
	top := document.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, &fileerror.Error{Path: path, Line: top.Line, Field: "(file)", Reason: "expected lines of action: key"}
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		name, value := top.Content[i], top.Content[i+1]
		keys, err := keysOf(value)
		if err != nil {
			return nil, &fileerror.Error{Path: path, Line: name.Line, Field: name.Value, Reason: err.Error()}
		}
		file.Bindings = append(file.Bindings, FileBinding{Action: name.Value, Keys: keys, Line: name.Line})
	}
	return file, nil
}

// keysOf is a value: one key or a list of keys.
func keysOf(value *yaml.Node) ([]string, error) {
	var keys []string
	switch value.Kind {
	case yaml.ScalarNode:
		keys = []string{value.Value}
	case yaml.SequenceNode:
		for _, item := range value.Content {
			if item.Kind != yaml.ScalarNode {
				return nil, errors.New("a key is a name such as F, ctrl+f or f5")
			}
			keys = append(keys, item.Value)
		}
	default:
		return nil, errors.New("give a key or a list of keys")
	}
	if len(keys) == 0 {
		return nil, errors.New("no key given")
	}
	for _, k := range keys {
		if !validKey(k) {
			return nil, fmt.Errorf("%q is not a key name (write F, ctrl+f, alt+x, f5, enter…)", k)
		}
	}
	return keys, nil
}

// validKey is a key name key.Matches can compare: one character, or
// modifiers and a named key or character.
func validKey(k string) bool {
	rest := k
	for _, modifier := range []string{"ctrl+", "alt+", "shift+"} {
		if len(rest) > len(modifier) && strings.HasPrefix(rest, modifier) {
			rest = rest[len(modifier):]
		}
	}
	if len([]rune(rest)) == 1 {
		return rest != " "
	}
	return slices.Contains(namedKeys, rest)
}

var namedKeys = []string{
	"enter", "esc", "tab", "space", "backspace", "up", "down", "left", "right", "home", "end",
	"pgup", "pgdown", "delete", "insert", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9",
	"f10", "f11", "f12",
}

// check refuses an unknown action, an action named twice and two actions
// of one context (or a screen's and a global one) on one key, where the
// file set at least one of the two.
func (f *File) check() error {
	known := defaults.Get()
	seen := map[string]int{}
	for _, binding := range f.Bindings {
		if _, ok := known[binding.Action]; !ok {
			return &fileerror.Error{Path: f.Path, Line: binding.Line, Field: binding.Action, Reason: "no such action (`cardterm keys` lists them)"}
		}
		if line, twice := seen[binding.Action]; twice {
			return &fileerror.Error{Path: f.Path, Line: binding.Line, Field: binding.Action, Reason: fmt.Sprintf("bound already on line %d", line)}
		}
		seen[binding.Action] = binding.Line
	}
	merged := registryDefaults()
	for _, binding := range f.Bindings {
		action := merged[binding.Action]
		action.Keys = binding.Keys
		merged[binding.Action] = action
	}
	// The line at fault is the later of two: the one that gave a key
	// already taken, by a line above or by another action's default.
	for _, binding := range f.Bindings {
		for _, c := range clashes(merged, merged[binding.Action]) {
			otherLine, inFile := seen[c.other]
			if inFile && otherLine > binding.Line {
				continue // that later line is the one refused
			}
			where := "by default"
			if inFile {
				where = fmt.Sprintf("line %d", otherLine)
			}
			return &fileerror.Error{Path: f.Path, Line: binding.Line, Field: binding.Action,
				Reason: fmt.Sprintf("key %q is %s's already (%s), in the same context", c.key, c.other, where)}
		}
	}
	return nil
}

// keyClash is another action that runs on one of an action's keys.
type keyClash struct{ other, key string }

// clashes are the other actions that one of action's keys also runs
// where action works (its own context, or the global keys, which come
// first), by name.
func clashes(all map[string]Action, action Action) []keyClash {
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
	}
	slices.Sort(names)
	var found []keyClash
	for _, name := range names {
		other := all[name]
		if name == action.Name {
			continue
		}
		same := other.Context() == action.Context() || other.Context() == "global" || action.Context() == "global"
		if !same {
			continue
		}
		for _, k := range action.Keys {
			if slices.Contains(other.Keys, k) && !sharedByDesign(action, other, k) {
				found = append(found, keyClash{other: name, key: k})
			}
		}
	}
	return found
}

// sharedByDesign is a key two actions share in the defaults: a screen's
// reload on the global refresh's r, quit and interrupt on ctrl+c. The
// user's file keeps those as they are.
func sharedByDesign(a, b Action, k string) bool {
	defaultA, defaultB := defaults.Get()[a.Name], defaults.Get()[b.Name]
	return slices.Contains(defaultA.Keys, k) && slices.Contains(defaultB.Keys, k)
}
