package cli

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
)

// The fields of `cardterm api` (-f and -F), read as `gh api` reads them:
// key[sub]=v nests an object, key[]=v appends to an array (key[][sub]=v
// fills the array's last object until sub repeats), key[] alone is an
// empty array; -F types its value (true, false, null, an integer, @FILE
// or @- for stdin's contents), -f never does. All -f fields are read
// before the -F ones, as gh reads them.

// fieldReader reads the files and stdin that -F key=@FILE names.
type fieldReader struct {
	stdin     io.Reader
	stdinUsed bool
}

// parseFields builds the JSON object of the raw (-f) and typed (-F)
// fields.
func parseFields(raw, typed []string, stdin io.Reader) (map[string]any, error) {
	params := map[string]any{}
	files := &fieldReader{stdin: stdin}
	for _, field := range raw {
		if err := addField(params, field, false, files); err != nil {
			return nil, usageError{fmt.Sprintf("-f %q: %v", field, err)}
		}
	}
	for _, field := range typed {
		if err := addField(params, field, true, files); err != nil {
			return nil, usageError{fmt.Sprintf("-F %q: %v", field, err)}
		}
	}
	return params, nil
}

// fieldKey splits "a[b][]=v" into its keys ("a", "b", "") and its value;
// hasValue is false for a field without "=" (only key[] may lack one).
func fieldKey(field string) (keys []string, value string, hasValue bool, err error) {
	start := 0
	for i, r := range field {
		switch r {
		case '[':
			if start == 0 {
				keys = append(keys, field[:i])
			}
			start = i + 1
		case ']':
			keys = append(keys, field[start:i])
		case '=':
			if start == 0 {
				keys = append(keys, field[:i])
			}
			return checkKeys(keys, field[i+1:], true)
		}
	}
	if start == 0 {
		keys = append(keys, field)
	}
	return checkKeys(keys, "", false)
}

func checkKeys(keys []string, value string, hasValue bool) ([]string, string, bool, error) {
	if len(keys) == 0 || keys[0] == "" {
		return nil, "", false, fmt.Errorf("write key=value (key[sub]=value nests, key[]=value appends)")
	}
	if !hasValue && keys[len(keys)-1] != "" {
		return nil, "", false, fmt.Errorf("a field needs a value after '=' (only key[] stands alone, for an empty array)")
	}
	return keys, value, hasValue, nil
}

// addField puts one field into params, as gh's parseFields does.
func addField(params map[string]any, field string, typed bool, files *fieldReader) error {
	keys, text, hasValue, err := fieldKey(field)
	if err != nil {
		return err
	}
	var value any
	if hasValue {
		value = text
		if typed {
			if value, err = files.typedValue(text); err != nil {
				return err
			}
		}
	}
	dest := params
	isArray := false
	var subkey string
	for _, k := range keys {
		if k == "" {
			isArray = true
			continue
		}
		if subkey != "" {
			if isArray {
				dest, err = arrayObject(dest, subkey, k)
				isArray = false
			} else {
				dest, err = nestedObject(dest, subkey)
			}
			if err != nil {
				return err
			}
		}
		subkey = k
	}
	if !isArray {
		if _, exists := dest[subkey]; exists {
			return fmt.Errorf("%q is given twice", subkey)
		}
		dest[subkey] = value
		return nil
	}
	existing, exists := dest[subkey]
	list, isList := existing.([]any)
	switch {
	case exists && !isList:
		return fmt.Errorf("%q is not an array here", subkey)
	case !hasValue:
		if !exists {
			dest[subkey] = []any{}
		}
	default:
		dest[subkey] = append(list, value)
	}
	return nil
}

// nestedObject is the object under key in m, made when missing.
func nestedObject(m map[string]any, key string) (map[string]any, error) {
	existing, exists := m[key]
	if !exists {
		child := map[string]any{}
		m[key] = child
		return child, nil
	}
	child, ok := existing.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%q is not an object here", key)
	}
	return child, nil
}

// arrayObject is the object key[] fills next: the array's last object
// while it lacks next (or next is an array), else a new one appended.
func arrayObject(m map[string]any, key, next string) (map[string]any, error) {
	existing, exists := m[key]
	list, ok := existing.([]any)
	if exists && !ok {
		return nil, fmt.Errorf("%q is not an array here", key)
	}
	if len(list) > 0 {
		if last, ok := list[len(list)-1].(map[string]any); ok {
			value, taken := last[next]
			if _, isList := value.([]any); !taken || isList {
				return last, nil
			}
		}
	}
	child := map[string]any{}
	m[key] = append(list, child)
	return child, nil
}

// typedValue is -F's value: a file's contents (@FILE, @- for stdin),
// an integer, true, false or null as JSON, else the text itself.
func (f *fieldReader) typedValue(text string) (any, error) {
	if name, ok := strings.CutPrefix(text, "@"); ok {
		data, err := f.read(name)
		return string(data), err
	}
	if n, err := strconv.Atoi(text); err == nil {
		return n, nil
	}
	switch text {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	}
	return text, nil
}

// read reads a file, or stdin for "-" (once).
func (f *fieldReader) read(name string) ([]byte, error) {
	if name != "-" {
		return os.ReadFile(name)
	}
	if f.stdin == nil {
		return nil, fmt.Errorf("@- reads stdin, and there is none")
	}
	if f.stdinUsed {
		return nil, fmt.Errorf("@- is given twice; stdin is read once")
	}
	f.stdinUsed = true
	return io.ReadAll(f.stdin)
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
			names := make([]string, 0, len(v))
			for name := range v {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
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
