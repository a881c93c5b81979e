// Package recordcommand is the user's own commands on a record: a
// commands.yaml names, per kind of record (transactions, consent,
// events…), commands whose arguments are built from the record's fields.
// A command runs without a shell: a {field} placeholder expands inside
// one argument and is never split again. Where the file asks for a shell,
// the fields reach it only as CARDTERM_FIELD_* variables, never spliced
// into its command line.
package recordcommand

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"go.yaml.in/yaml/v3"

	"cardterm/domain/fileerror"
	"cardterm/domain/lazy"
)

// Command is one entry of the file.
type Command struct {
	// Name is what the chooser and the confirmation call it.
	Name string
	// Argv is the program and its arguments, with {field} placeholders.
	// Empty when Shell is set.
	Argv []string
	// Shell is a script for /bin/sh -c, the fields in its environment.
	Shell string
	// Line is where the file defines it, for messages.
	Line int
}

// File is the commands for each kind of record.
type File struct {
	Path   string
	ByKind map[string][]Command
}

// For is the commands for records of kind.
func (f *File) For(kind string) []Command {
	if f == nil {
		return nil
	}
	return f.ByKind[kind]
}

// entry is a command as written.
type entry struct {
	Name  string   `yaml:"name"`
	Run   []string `yaml:"run"`
	Shell string   `yaml:"shell"`
}

// placeholder is {field}: letters, digits, _ and dots.
var placeholder = lazy.Regexp{Pattern: `\{([A-Za-z0-9_.]+)\}`}

// Load reads and checks the file at path; a missing file is no file.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse reads a commands file's text; path is for the messages.
func Parse(path string, data []byte) (*File, error) {
	file := &File{Path: path, ByKind: map[string][]Command{}}
	var document yaml.Node
	if err := yaml.Unmarshal(data, &document); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(document.Content) == 0 {
		return file, nil
	}
	top := document.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, &fileerror.Error{Path: path, Line: top.Line, Reason: "expected a kind of record (transactions, consent, events…) and its commands"}
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		kind, list := top.Content[i], top.Content[i+1]
		if list.Kind != yaml.SequenceNode {
			return nil, &fileerror.Error{Path: path, Line: kind.Line, Field: kind.Value, Reason: "expected a list of commands"}
		}
		for _, item := range list.Content {
			command, err := commandOf(path, item)
			if err != nil {
				return nil, err
			}
			file.ByKind[kind.Value] = append(file.ByKind[kind.Value], command)
		}
	}
	return file, nil
}

// commandOf checks one entry: a name, and either run (an argument list)
// or shell (a script), not both.
func commandOf(path string, item *yaml.Node) (Command, error) {
	var e entry
	if err := item.Decode(&e); err != nil {
		return Command{}, &fileerror.Error{Path: path, Line: item.Line, Reason: "a command is name: and run: [program, args…] (or shell: script)"}
	}
	switch {
	case e.Name == "":
		return Command{}, &fileerror.Error{Path: path, Line: item.Line, Reason: "a command needs a name"}
	case len(e.Run) > 0 && e.Shell != "":
		return Command{}, &fileerror.Error{Path: path, Line: item.Line, Field: e.Name, Reason: "give run or shell, not both"}
	case len(e.Run) == 0 && e.Shell == "":
		return Command{}, &fileerror.Error{Path: path, Line: item.Line, Field: e.Name, Reason: "give run: [program, args…] or shell: script"}
	case len(e.Run) > 0 && placeholder.Get().MatchString(e.Run[0]):
		return Command{}, &fileerror.Error{Path: path, Line: item.Line, Field: e.Name, Reason: "the program itself cannot come from a field"}
	case e.Shell != "" && placeholder.Get().MatchString(e.Shell):
		return Command{}, &fileerror.Error{Path: path, Line: item.Line, Field: e.Name, Reason: "a shell script reads the fields as $CARDTERM_FIELD_NAME, never {name}"}
	}
	return Command{Name: e.Name, Argv: e.Run, Shell: e.Shell, Line: item.Line}, nil
}
