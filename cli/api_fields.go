package cli

import (
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The fields of `cardterm api` (-f and -F), read as `gh api` reads them:
// key[sub]=v nests an object, key[]=v appends to an array (key[][sub]=v
// fills the array's last object until sub repeats), key[] alone is an
// empty array; -F types its value (true, false, null, an integer, @FILE
// or @- for stdin's contents), -f never does. All -f fields are read
// before the -F ones, as gh reads them.

// fieldPattern is key[sub][]…=value: a name, its bracketed keys, and the
// value after the first '=' (none only for key[]).
var fieldPattern = regexp.MustCompile(`(?s)^([^\[\]=]+)((?:\[[^\[\]=]*\])*)(?:=(.*))?$`)

// bracketKey is one [sub] of a field's key.
var bracketKey = regexp.MustCompile(`\[([^\[\]]*)\]`)

// parseFields builds the JSON object of the raw (-f) and typed (-F)
// fields; stdin is read once, by the first -F key=@-.
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

// addField puts one field into params, as gh's parseFields does.
func addField(params map[string]any, field string, typed bool, stdin *io.Reader) error {
	parts := fieldPattern.FindStringSubmatchIndex(field)
	if parts == nil {
		return fmt.Errorf("write key=value (key[sub]=value nests, key[]=value appends)")
	}
	keys := []string{field[parts[2]:parts[3]]}
	for _, sub := range bracketKey.FindAllStringSubmatch(field[parts[4]:parts[5]], -1) {
		keys = append(keys, sub[1])
	}
	hasValue := parts[6] >= 0
	if !hasValue && keys[len(keys)-1] != "" {
		return fmt.Errorf("a field needs a value after '=' (only key[] stands alone, for an empty array)")
	}
	var value any
	if hasValue {
		value = field[parts[6]:parts[7]]
		if typed {
			var err error
			if value, err = typedValue(value.(string), stdin); err != nil {
				return err
			}
		}
	}
	dest, inArray, key := params, false, keys[0]
	for _, next := range keys[1:] {
		if next == "" {
			inArray = true
			continue
		}
		var err error
		if dest, err = child(dest, key, next, inArray); err != nil {
			return err
		}
		key, inArray = next, false
	}
	existing, exists := dest[key]
	list, isList := existing.([]any)
	switch {
	case !inArray && exists:
		return fmt.Errorf("%q is given twice", key)
	case !inArray:
		dest[key] = value
	case exists && !isList:
		return fmt.Errorf("%q is not an array here", key)
	case hasValue:
		dest[key] = append(list, value)
	case !exists:
		dest[key] = []any{}
	}
	return nil
}

// child is the object the key after key goes into: dest[key], made when
// missing; in an array (key[]) the array's last object while it lacks
// next (or next is an array), else a new one appended.
func child(dest map[string]any, key, next string, inArray bool) (map[string]any, error) {
	existing, exists := dest[key]
	if !inArray {
		object, ok := existing.(map[string]any)
		if exists && !ok {
			return nil, fmt.Errorf("%q is not an object here", key)
		}
		if !exists {
			object = map[string]any{}
			dest[key] = object
		}
		return object, nil
	}
	list, ok := existing.([]any)
	if exists && !ok {
		return nil, fmt.Errorf("%q is not an array here", key)
	}
	if len(list) > 0 {
		if last, ok := list[len(list)-1].(map[string]any); ok {
			if value, taken := last[next]; !taken {
				return last, nil
			} else if _, isList := value.([]any); isList {
				return last, nil
			}
		}
	}
	object := map[string]any{}
	dest[key] = append(list, object)
	return object, nil
}

// typedValue is -F's value: a file's contents (@FILE, @- for stdin, read
// once), an integer, true, false or null as JSON, else the text itself.
func typedValue(text string, stdin *io.Reader) (any, error) {
	if n, err := strconv.Atoi(text); err == nil {
		return n, nil
	}
	switch text {
	case "true", "false":
		return text == "true", nil
	case "null":
		return nil, nil
	case "@-":
		if *stdin == nil {
			return nil, fmt.Errorf("@- reads stdin, and it is not there or was read before")
		}
		data, err := io.ReadAll(*stdin)
		*stdin = nil
		return string(data), err
	}
	if name, ok := strings.CutPrefix(text, "@"); ok {
		data, err := os.ReadFile(name)
		return string(data), err
	}
	return text, nil
}

// fieldsQuery makes fields into query parameters (a GET, or a body read
// from --input): scalars as text (null as empty), arrays as key[]=v,
// objects as key[sub]=v.
func fieldsQuery(fields map[string]any) url.Values {
	query := url.Values{}
	var add func(key string, value any)
	add = func(key string, value any) {
		switch v := value.(type) {
		case map[string]any:
			for _, name := range slices.Sorted(maps.Keys(v)) {
				add(key+"["+name+"]", v[name])
			}
		case []any:
			for _, item := range v {
				add(key+"[]", item)
			}
		case nil:
			query.Add(key, "")
		default:
			query.Add(key, fmt.Sprint(v))
		}
	}
	for key, value := range fields {
		add(key, value)
	}
	return query
}
