package proxy

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"cardterm/sandbox"
)

// The rules come from the interface's OpenAPI description, embedded in
// the binary (sandbox.OpenAPISpec): the document the contract tests hold
// the sandbox to with a full OpenAPI validator. The proxy reads the part
// it checks itself (operations, parameters, bodies, answers, the bearer
// rule) with a small validator (schema.go): a full one costs every run
// of cardterm megabytes at start, for a command few runs. Each violation
// names its rule in the interface's words: a parameter's or a field's
// description.

// Violation is one broken rule of a request or an answer.
type Violation struct {
	// Where is request or response.
	Where string `json:"where"`
	// Rule is what the interface says, in its words.
	Rule string `json:"rule"`
	// Detail is what was wrong, without the value sent.
	Detail string `json:"detail"`
}

// node is a part of the document: a mapping, a list or a value.
type node = map[string]any

// operation is one method of one path.
type operation struct {
	method, path string // path as the document writes it, {id} and all
	segments     []string
	op           node
	params       []node // the path's and the operation's, refs resolved
}

// spec is the loaded document.
type spec struct {
	root       node
	operations []operation
}

var (
	loadOnce   sync.Once
	loaded     *spec
	loadFailed error
)

// loadSpec parses the embedded document once.
func loadSpec() (*spec, error) {
	loadOnce.Do(func() {
		var root node
		if err := yaml.Unmarshal(sandbox.OpenAPISpec, &root); err != nil {
			loadFailed = fmt.Errorf("the interface's description: %w", err)
			return
		}
		s := &spec{root: root}
		paths, _ := root["paths"].(node)
		for path, item := range paths {
			methods, _ := item.(node)
			shared := s.list(methods["parameters"])
			for method, op := range methods {
				o, ok := op.(node)
				if !ok || method == "parameters" {
					continue
				}
				s.operations = append(s.operations, operation{method: strings.ToUpper(method), path: path,
					segments: strings.Split(strings.Trim(path, "/"), "/"), op: o, params: append(shared, s.list(o["parameters"])...)})
			}
		}
		// Literal segments first: /v1/order/products/available before /v1/order/{orderId}.
		sort.SliceStable(s.operations, func(i, j int) bool {
			return literalCount(s.operations[i].segments) > literalCount(s.operations[j].segments)
		})
		loaded = s
	})
	return loaded, loadFailed
}

func literalCount(segments []string) int {
	n := 0
	for _, s := range segments {
		if !strings.HasPrefix(s, "{") {
			n++
		}
	}
	return n
}

// resolve follows a $ref (#/components/...) to what it names.
func (s *spec) resolve(v any) node {
	n, _ := v.(node)
	for range 16 { // refs to refs, never in a loop
		ref, ok := n["$ref"].(string)
		if !ok {
			return n
		}
		var at any = s.root
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			m, _ := at.(node)
			at = m[part]
		}
		n, _ = at.(node)
	}
	return n
}

// list resolves each item of a list of nodes.
func (s *spec) list(v any) []node {
	items, _ := v.([]any)
	out := make([]node, 0, len(items))
	for _, item := range items {
		if n := s.resolve(item); n != nil {
			out = append(out, n)
		}
	}
	return out
}

// find is the operation of a method and path, and the path's values.
func (s *spec) find(method, path string) (*operation, map[string]string) {
	segments := strings.Split(strings.Trim(path, "/"), "/")
	for i := range s.operations {
		o := &s.operations[i]
		if o.method != method || len(o.segments) != len(segments) {
			continue
		}
		values := map[string]string{}
		for j, seg := range o.segments {
			switch {
			case strings.HasPrefix(seg, "{") && segments[j] != "":
				values[strings.Trim(seg, "{}")] = segments[j]
			case seg != segments[j]:
				values = nil
			}
			if values == nil {
				break
			}
		}
		if values != nil {
			return o, values
		}
	}
	return nil, nil
}

// needsBearer reports whether the operation asks for the bearer token.
func (s *spec) needsBearer(o *operation) bool {
	security, ok := o.op["security"]
	if !ok {
		security = s.root["security"]
	}
	for _, req := range toList(security) {
		if r, ok := req.(node); ok {
			if _, bearer := r["bearerAuth"]; bearer {
				return true
			}
		}
	}
	return false
}

// checkParameters checks the headers, path values and query of a request.
func (s *spec) checkParameters(o *operation, r *http.Request, pathValues map[string]string) []Violation {
	var out []Violation
	for _, p := range o.params {
		name, _ := p["name"].(string)
		in, _ := p["in"].(string)
		required, _ := p["required"].(bool)
		var value string
		var present bool
		switch in {
		case "header":
			vs := r.Header.Values(name)
			value, present = strings.Join(vs, ","), len(vs) > 0
		case "path":
			value, present = pathValues[name]
		case "query":
			q := r.URL.Query()
			value, present = q.Get(name), q.Has(name)
		default:
			continue
		}
		rule := parameterRule(p, s.resolve(p["schema"]))
		switch {
		case !present && required:
			out = append(out, Violation{Where: "request", Rule: rule, Detail: in + " " + name + ": missing"})
		case present:
			if why := s.checkText(s.resolve(p["schema"]), value); why != "" {
				out = append(out, Violation{Where: "request", Rule: rule, Detail: in + " " + name + ": " + why})
			}
		}
	}
	return out
}

// parameterRule is a parameter's rule in the document's words.
func parameterRule(p, schema node) string {
	name, _ := p["name"].(string)
	in, _ := p["in"].(string)
	rule := in + " " + name
	if required, _ := p["required"].(bool); required {
		rule += " (required)"
	}
	if d, _ := p["description"].(string); d != "" {
		rule += ": " + d
	}
	if f, _ := schema["format"].(string); f != "" {
		rule += " (" + strings.ToUpper(f) + ")"
	}
	return rule
}

func toList(v any) []any { l, _ := v.([]any); return l }
