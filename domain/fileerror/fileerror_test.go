package fileerror

import (
	"errors"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  *Error
		want string
	}{
		{"with a field", &Error{Path: "keys.yaml", Line: 3, Field: "card.freeze", Reason: "no such action"},
			"keys.yaml:3: card.freeze: no such action"},
		{"without a field", &Error{Path: "theme.yaml", Line: 1, Reason: "expected lines of role: colour"},
			"theme.yaml:1: expected lines of role: colour"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestInvalidYAML(t *testing.T) {
	var node yaml.Node
	parserError := yaml.Unmarshal([]byte("rules:\n\t- name: a\n"), &node)
	if parserError == nil {
		t.Fatal("a tab in the indent was accepted")
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"the parser's line is the error's line", parserError,
			"guard.yaml:2: not valid YAML: found character that cannot start any token"},
		{"an error without a line is line 1", errors.New("yaml: control characters are not allowed"),
			"guard.yaml:1: not valid YAML: control characters are not allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := InvalidYAML("guard.yaml", tc.err).Error(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
