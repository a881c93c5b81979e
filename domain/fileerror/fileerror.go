// Package fileerror is the one error for a user's file that is refused
// (config, keys, theme, guard rules, record commands): the file, the
// line, what the line is about and why. It imports nothing of cardterm,
// so theme, ui, domain and cli can all return it.
package fileerror

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is a refused file, written path:line: field: reason (or
// path:line: reason without a field) so an editor can jump to the line.
type Error struct {
	Path string
	Line int
	// Field is the field, action or role the line is about; "" when the
	// reason is about the line as a whole.
	Field  string
	Reason string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Reason)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.Path, e.Line, e.Field, e.Reason)
}

// InvalidYAML is the error for a file the YAML parser refused: the line
// it names (1 when it names none) and its message, without the parser's
// "yaml: line N:" prefix, after "not valid YAML: ".
func InvalidYAML(path string, err error) *Error {
	line, message := 1, strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(message, "line "); ok {
		if number, after, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(number); err == nil {
				line, message = n, after
			}
		}
	}
	return &Error{Path: path, Line: line, Reason: "not valid YAML: " + message}
}
