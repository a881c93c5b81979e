package recordcommand

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
)

// Prepared is a command ready to run on one record: the exact argv and the
// variables added to the child's environment.
type Prepared struct {
	Name string
	Argv []string
	// Fields are the CARDTERM_FIELD_NAME=value entries.
	Fields []string
}

// Prepare expands the command's placeholders with the record's fields,
// each inside its own argument (never split again); a placeholder the
// record has no field for is refused, naming the fields there are.
func (c Command) Prepare(fields map[string]string) (Prepared, error) {
	prepared := Prepared{Name: c.Name, Fields: Environment(fields)}
	if c.Shell != "" {
		prepared.Argv = []string{"/bin/sh", "-c", c.Shell, "cardterm-" + c.Name}
		return prepared, nil
	}
	for _, arg := range c.Argv {
		var missing string
		expanded := placeholder.Get().ReplaceAllStringFunc(arg, func(match string) string {
			name := match[1 : len(match)-1]
			value, ok := fields[name]
			if !ok && missing == "" {
				missing = name
			}
			return value
		})
		if missing != "" {
			return Prepared{}, fmt.Errorf("%s: the record has no field {%s} (it has %s)", c.Name, missing, strings.Join(slices.Sorted(maps.Keys(fields)), ", "))
		}
		prepared.Argv = append(prepared.Argv, expanded)
	}
	return prepared, nil
}

// Environment is the fields as CARDTERM_FIELD_NAME=value, sorted;
// merchantName and merchant_name are both CARDTERM_FIELD_MERCHANT_NAME.
func Environment(fields map[string]string) []string {
	env := make([]string, 0, len(fields))
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		env = append(env, "CARDTERM_FIELD_"+EnvironmentName(name)+"="+fields[name])
	}
	return env
}

// EnvironmentName is a field's name in upper snake case.
func EnvironmentName(field string) string {
	var b strings.Builder
	previous := rune(0)
	for _, r := range field {
		switch {
		case unicode.IsUpper(r) && previous != 0 && (unicode.IsLower(previous) || unicode.IsDigit(previous)):
			b.WriteByte('_')
			b.WriteRune(r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToUpper(r))
		default:
			b.WriteByte('_')
		}
		previous = r
	}
	return b.String()
}

// Display is the argv as one line a reader can check: each argument that
// is not plain is single-quoted, so its boundaries show.
func (p Prepared) Display() string {
	shown := make([]string, len(p.Argv))
	for i, arg := range p.Argv {
		shown[i] = quote(arg)
	}
	return strings.Join(shown, " ")
}

func quote(arg string) string {
	plain := arg != "" && strings.IndexFunc(arg, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_./:=@,+%", r))
	}) < 0
	if plain {
		return arg
	}
	return "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
}
