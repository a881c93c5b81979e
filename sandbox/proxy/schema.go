package proxy

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"cardterm/domain/lazy"
)

// The part of JSON Schema the interface's description uses: type,
// nullable, required, properties, additionalProperties: false, items,
// enum, format uuid, minLength, maxLength, minimum, maximum, minItems,
// maxItems, pattern, allOf, anyOf and oneOf (one of them must hold).
// Messages never quote the value sent: a secret may be one.

// patterns are the document's patterns, compiled once (nil: not valid).
var patterns sync.Map

func compiled(pattern string) *regexp.Regexp {
	if re, ok := patterns.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := regexp.Compile(pattern)
	patterns.Store(pattern, re)
	return re
}

var uuidRE = lazy.Regexp{Pattern: `^(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`}

// problem is a field that breaks its schema.
type problem struct {
	field  string // dotted path into the body, "" for the whole
	schema node
	why    string
}

// checkText checks a parameter's text against its schema; "" when it holds.
func (s *spec) checkText(schema node, text string) string {
	var value any = text
	switch schemaType(schema) {
	case "boolean":
		b, err := strconv.ParseBool(text)
		if err != nil {
			return "must be true or false"
		}
		value = b
	case "integer":
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return "must be a whole number"
		}
		value = float64(n)
	case "number":
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return "must be a number"
		}
		value = f
	}
	if problems := s.check(schema, value, ""); len(problems) > 0 {
		return problems[0].why
	}
	return ""
}

// checkJSON checks a JSON body against schema.
func (s *spec) checkJSON(schema node, body []byte) []problem {
	var value any
	d := json.NewDecoder(strings.NewReader(string(body)))
	if err := d.Decode(&value); err != nil {
		return []problem{{schema: schema, why: "is not JSON"}}
	}
	return s.check(schema, value, "")
}

func schemaType(schema node) string { t, _ := schema["type"].(string); return t }

// check checks value against schema; field is where value is.
func (s *spec) check(schema node, value any, field string) []problem {
	schema = s.resolve(schema)
	if schema == nil {
		return nil
	}
	var out []problem
	for _, part := range toList(schema["allOf"]) {
		out = append(out, s.check(s.resolve(part), value, field)...)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if alternatives := toList(schema[key]); len(alternatives) > 0 && !slices.ContainsFunc(alternatives, func(a any) bool {
			return len(s.check(s.resolve(a), value, field)) == 0
		}) {
			out = append(out, problem{field, schema, "matches none of the shapes the interface allows"})
		}
	}
	if value == nil {
		if nullable, _ := schema["nullable"].(bool); !nullable && schemaType(schema) != "" {
			out = append(out, problem{field, schema, "must not be null"})
		}
		return out
	}
	if why := typeProblem(schemaType(schema), value); why != "" {
		return append(out, problem{field, schema, why})
	}
	if enum := toList(schema["enum"]); len(enum) > 0 && !slices.ContainsFunc(enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(value) }) {
		out = append(out, problem{field, schema, "must be one of " + joinAny(enum)})
	}
	switch v := value.(type) {
	case string:
		out = append(out, stringProblems(schema, v, field)...)
	case float64:
		if lo, ok := number(schema["minimum"]); ok && v < lo {
			out = append(out, problem{field, schema, fmt.Sprintf("must be at least %v", lo)})
		}
		if hi, ok := number(schema["maximum"]); ok && v > hi {
			out = append(out, problem{field, schema, fmt.Sprintf("must be at most %v", hi)})
		}
	case []any:
		out = append(out, s.arrayProblems(schema, v, field)...)
	case map[string]any:
		out = append(out, s.objectProblems(schema, v, field)...)
	}
	return out
}

// typeProblem says how value is not of type t ("" when it is).
func typeProblem(t string, value any) string {
	ok := true
	switch t {
	case "string":
		_, ok = value.(string)
	case "boolean":
		_, ok = value.(bool)
	case "number":
		_, ok = value.(float64)
	case "integer":
		f, isNumber := value.(float64)
		ok = isNumber && f == float64(int64(f))
	case "array":
		_, ok = value.([]any)
	case "object":
		_, ok = value.(map[string]any)
	}
	if ok {
		return ""
	}
	article := "a"
	if t == "integer" || t == "object" || t == "array" {
		article = "an"
	}
	return fmt.Sprintf("must be %s %s, not %s", article, t, kindOf(value))
}

// kindOf names a JSON value's kind, never the value.
func kindOf(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "null"
}

func stringProblems(schema node, v, field string) []problem {
	var out []problem
	n := utf8.RuneCountInString(v)
	if lo, ok := number(schema["minLength"]); ok && float64(n) < lo {
		out = append(out, problem{field, schema, fmt.Sprintf("must be at least %v characters", lo)})
	}
	if hi, ok := number(schema["maxLength"]); ok && float64(n) > hi {
		out = append(out, problem{field, schema, fmt.Sprintf("must be at most %v characters", hi)})
	}
	if f, _ := schema["format"].(string); f == "uuid" && !uuidRE.Get().MatchString(v) {
		out = append(out, problem{field, schema, "must be a UUID"})
	}
	if p, _ := schema["pattern"].(string); p != "" {
		if re := compiled(p); re != nil && !re.MatchString(v) {
			out = append(out, problem{field, schema, "does not have the form the interface gives (" + p + ")"})
		}
	}
	return out
}

func (s *spec) arrayProblems(schema node, v []any, field string) []problem {
	var out []problem
	if lo, ok := number(schema["minItems"]); ok && float64(len(v)) < lo {
		out = append(out, problem{field, schema, fmt.Sprintf("must have at least %v items", lo)})
	}
	if hi, ok := number(schema["maxItems"]); ok && float64(len(v)) > hi {
		out = append(out, problem{field, schema, fmt.Sprintf("must have at most %v items", hi)})
	}
	if items := s.resolve(schema["items"]); items != nil {
		for i, item := range v {
			out = append(out, s.check(items, item, join(field, strconv.Itoa(i)))...)
		}
	}
	return out
}

func (s *spec) objectProblems(schema node, v map[string]any, field string) []problem {
	var out []problem
	properties, _ := schema["properties"].(node)
	for _, name := range toList(schema["required"]) {
		key := fmt.Sprint(name)
		if _, ok := v[key]; !ok {
			out = append(out, problem{join(field, key), s.resolve(properties[key]), "is required but missing"})
		}
	}
	closed := schema["additionalProperties"] == false
	for _, key := range sortedKeys(v) {
		sub, known := properties[key]
		switch {
		case known:
			out = append(out, s.check(s.resolve(sub), v[key], join(field, key))...)
		case closed:
			out = append(out, problem{join(field, key), nil, "is not a field the interface knows here"})
		}
	}
	return out
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

func joinAny(list []any) string {
	parts := make([]string, len(list))
	for i, v := range list {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// fieldRule is a body or answer field's rule in the document's words.
func fieldRule(what string, p problem) string {
	field := p.field
	if field == "" {
		field = "(the whole " + what + ")"
	}
	rule := what + " field " + field
	if t := schemaType(p.schema); t != "" {
		rule += " (" + t + ")"
	}
	if d, _ := p.schema["description"].(string); d != "" {
		rule += ": " + d
	}
	return rule
}
