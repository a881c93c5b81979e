package cli

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The -f and -F fields of `cardterm api`, nested and typed as gh api
// reads them (docs/api.md, "Nesting").

// fieldKey is a field's key: a name, then bracketed keys ([sub] or []).
var fieldKey = regexp.MustCompile(`^[^\[\]]+(\[[^\[\]]*\])*$`)

// parseFields builds the JSON object of the raw (-f) and typed (-F)
// fields, all -f before the -F as gh; stdin is read by the first @-.
func parseFields(raw, typed []string, stdin io.Reader) (map[string]any, error) {
	params := map[string]any{}
	for i, field := range append(slices.Clone(raw), typed...) {
		flag, isTyped := "-f", i >= len(raw)
		if isTyped {
			flag = "-F"
		}
		if err := addField(params, field, isTyped, &stdin); err != nil {
			return nil, usageError{fmt.Sprintf("%s %q: %v", flag, field, err)}
		}
	}
	return params, nil
}

// addField splits one field into its keys and value and puts it into
// params.
func addField(params map[string]any, field string, typed bool, stdin *io.Reader) error {
	name, text, hasValue := strings.Cut(field, "=")
	if !fieldKey.MatchString(name) {
		return errors.New("write key=value (key[sub]=value nests, key[]=value appends)")
	}
	if !hasValue && !strings.HasSuffix(name, "[]") {
		return errors.New("a field needs a value after '=' (only key[] stands alone, for an empty array)")
	}
	first, brackets, _ := strings.Cut(name, "[") // "a[b][]" is the keys a, b and "" (an array)
	keys := []string{first}
	if brackets != "" {
		keys = append(keys, strings.Split(strings.TrimSuffix(brackets, "]"), "][")...)
	}
	var value any = text
	if typed && hasValue {
		var err error
		if value, err = typedValue(text, stdin); err != nil {
			return err
		}
	}
	return putField(params, keys, value, hasValue)
}

// putField puts value at keys[0], under the keys after it: an object for
// each [sub], an array for each [].
func putField(object map[string]any, keys []string, value any, hasValue bool) error {
	key, rest := keys[0], keys[1:]
	existing, exists := object[key]
	switch {
	case len(rest) == 0 && exists:
		return fmt.Errorf("%q is given twice", key)
	case len(rest) == 0:
		object[key] = value
		return nil
	case rest[0] != "": // key[sub]
		inner, ok := existing.(map[string]any)
		if exists && !ok {
			return fmt.Errorf("%q is not an object here", key)
		}
		if !exists {
			inner = map[string]any{}
			object[key] = inner
		}
		return putField(inner, rest, value, hasValue)
	}
	list, ok := existing.([]any) // key[]
	switch {
	case exists && !ok:
		return fmt.Errorf("%q is not an array here", key)
	case len(rest) > 1: // key[][sub]
		return putField(arrayObject(object, key, list, rest[1]), rest[1:], value, hasValue)
	case hasValue:
		object[key] = append(list, value)
	case !exists: // key[] alone: an empty array
		object[key] = []any{}
	}
	return nil
}

// arrayObject is the object of object[key] (list) that next goes into:
// as gh, the last one while it lacks next (or next is an array), else a
// new one appended.
func arrayObject(object map[string]any, key string, list []any, next string) map[string]any {
	if len(list) > 0 {
		last, _ := list[len(list)-1].(map[string]any)
		held, taken := last[next]
		if _, isList := held.([]any); last != nil && (!taken || isList) {
			return last
		}
	}
	fresh := map[string]any{}
	object[key] = append(list, fresh)
	return fresh
}

// typedValue is -F's value: @FILE's contents, an integer, true, false or
// null as JSON, else the text itself.
func typedValue(text string, stdin *io.Reader) (any, error) {
	if n, err := strconv.Atoi(text); err == nil {
		return n, nil
	}
	if name, isFile := strings.CutPrefix(text, "@"); isFile {
		return readFieldFile(name, stdin)
	}
	switch text {
	case "true", "false":
		return text == "true", nil
	case "null":
		return nil, nil
	}
	return text, nil
}

// readFieldFile reads the file of @FILE or --input; "-" is stdin, read
// once.
func readFieldFile(name string, stdin *io.Reader) (string, error) {
	if name != "-" {
		data, err := os.ReadFile(name)
		return string(data), err
	}
	if *stdin == nil {
		return "", errors.New("@- reads stdin, and it is not there or was read before")
	}
	data, err := io.ReadAll(*stdin)
	*stdin = nil
	return string(data), err
}

// fieldsQuery makes fields into query parameters: scalars as text (null
// as empty), arrays as key[]=v, objects as key[sub]=v.
func fieldsQuery(fields map[string]any) url.Values {
	query := url.Values{}
	for key, value := range fields {
		addQuery(query, key, value)
	}
	return query
}

// addQuery adds one field's value; Encode sorts the keys, so a map's
// order does not show.
func addQuery(query url.Values, key string, value any) {
	switch v := value.(type) {
	case map[string]any:
		for name, member := range v {
			addQuery(query, key+"["+name+"]", member)
		}
	case []any:
		for _, item := range v {
			addQuery(query, key+"[]", item)
		}
	case nil:
		query.Add(key, "")
	default:
		query.Add(key, fmt.Sprint(v))
	}
}
