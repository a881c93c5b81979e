package proxy

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"cardterm/sandbox"
)

// The rules come from the interface's OpenAPI description, embedded in
// the binary (sandbox.OpenAPISpec): the document the contract tests hold
// the sandbox to. Each violation names its rule in the interface's words:
// a parameter's or a field's description, the security scheme's.

// matchHost is the host the router matches every request under: the
// proxy checks paths, whoever the request was addressed to.
const matchHost = "http://gateway.proxy"

// Violation is one broken rule of a request or an answer.
type Violation struct {
	// Where is request or response.
	Where string `json:"where"`
	// Rule is what the interface says, in its words.
	Rule string `json:"rule"`
	// Detail is what was wrong, without the value sent.
	Detail string `json:"detail"`
}

// rules is the loaded document and its router.
type rules struct {
	router routers.Router
	opts   *openapi3filter.Options
}

var (
	loadOnce   sync.Once
	loaded     *rules
	loadFailed error
)

// loadRules parses the embedded document once.
func loadRules() (*rules, error) {
	loadOnce.Do(func() {
		openapi3.DefineStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562))
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(sandbox.OpenAPISpec)
		if err != nil {
			loadFailed = fmt.Errorf("the interface's description: %w", err)
			return
		}
		doc.Servers = openapi3.Servers{{URL: matchHost}}
		router, err := gorillamux.NewRouter(doc)
		if err != nil {
			loadFailed = fmt.Errorf("the interface's description: %w", err)
			return
		}
		loaded = &rules{router: router, opts: &openapi3filter.Options{
			AuthenticationFunc:    bearerPresent,
			IncludeResponseStatus: true,
			SkipSettingDefaults:   true,
			MultiError:            true,
		}}
	})
	return loaded, loadFailed
}

// bearerPresent is the security rule: a user's endpoint needs
// Authorization: Bearer <ACCESS_TOKEN> (whether the token is good is the
// gateway's answer, not a rule of the request's shape).
func bearerPresent(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	h := in.RequestValidationInput.Request.Header.Get("Authorization")
	if scheme, token, ok := strings.Cut(h, " "); !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return errors.New("no Authorization: Bearer <ACCESS_TOKEN> header")
	}
	return nil
}

// violationsOf turns a validation error into violations, each with its rule.
func violationsOf(where string, err error) []Violation {
	if err == nil {
		return nil
	}
	if multi, ok := err.(openapi3.MultiError); ok { // only at the top: a RequestError wraps one too
		var out []Violation
		for _, e := range multi {
			out = append(out, violationsOf(where, e)...)
		}
		return out
	}
	var reqErr *openapi3filter.RequestError
	var secErr *openapi3filter.SecurityRequirementsError
	var respErr *openapi3filter.ResponseError
	switch {
	case errors.As(err, &secErr):
		return []Violation{{Where: where, Rule: "Authorization: `Bearer <ACCESS_TOKEN>` for user-authenticated endpoints", Detail: "no bearer token was sent"}}
	case errors.As(err, &reqErr) && reqErr.Parameter != nil:
		return []Violation{parameterViolation(where, reqErr)}
	case errors.As(err, &reqErr) && reqErr.RequestBody != nil:
		return schemaViolations(where, "body", reqErr.Err, reqErr.Reason)
	case errors.As(err, &respErr):
		return schemaViolations(where, "answer", respErr.Err, respErr.Reason)
	}
	return []Violation{{Where: where, Rule: "the interface", Detail: reasonOf(err, "")}}
}

// parameterViolation describes a header, path or query parameter at fault.
func parameterViolation(where string, e *openapi3filter.RequestError) Violation {
	p := e.Parameter
	rule := fmt.Sprintf("%s %s", p.In, p.Name)
	if p.Required {
		rule += " (required)"
	}
	if p.Description != "" {
		rule += ": " + p.Description
	}
	if s := p.Schema; s != nil && s.Value != nil && s.Value.Format != "" {
		rule += fmt.Sprintf(" (%s)", strings.ToUpper(s.Value.Format))
	}
	detail := reasonOf(e.Err, e.Reason)
	if errors.Is(e.Err, openapi3filter.ErrInvalidRequired) {
		detail = "missing"
	}
	return Violation{Where: where, Rule: rule, Detail: fmt.Sprintf("%s %s: %s", p.In, p.Name, detail)}
}

// schemaViolations describes the fields of a body or an answer at fault.
func schemaViolations(where, what string, err error, reason string) []Violation {
	var multi openapi3.MultiError
	if errors.As(err, &multi) {
		var out []Violation
		for _, e := range multi {
			out = append(out, schemaViolations(where, what, e, reason)...)
		}
		return out
	}
	var se *openapi3.SchemaError
	if !errors.As(err, &se) {
		return []Violation{{Where: where, Rule: "the " + what + " of this operation", Detail: reasonOf(err, reason)}}
	}
	field := strings.Join(se.JSONPointer(), ".")
	if field == "" {
		field = "(the whole " + what + ")"
	}
	rule := what + " field " + field
	if s := se.Schema; s != nil {
		if s.Type != nil && len(*s.Type) > 0 {
			rule += " (" + strings.Join(*s.Type, " or ") + ")"
		}
		if s.Description != "" {
			rule += ": " + s.Description
		}
	}
	return []Violation{{Where: where, Rule: rule, Detail: field + ": " + se.Reason}}
}

// reasonOf is an error's reason without the value sent (a secret may be
// one): a schema error's reason, else the given one.
func reasonOf(err error, reason string) string {
	var se *openapi3.SchemaError
	if errors.As(err, &se) && se.Reason != "" {
		// A format's regular expression says nothing a person needs.
		reason, _, _ := strings.Cut(se.Reason, " (string doesn't match pattern")
		return reason
	}
	if reason != "" {
		return reason
	}
	if err != nil {
		return err.Error()
	}
	return "does not match"
}

// routeOf finds the operation of a request; the clone carries only what
// matching needs.
func (r *rules) routeOf(req *http.Request) (*routers.Route, map[string]string, error) {
	match := req.Clone(context.Background())
	match.URL.Scheme, match.URL.Host, match.Host = "http", "gateway.proxy", "gateway.proxy"
	return r.router.FindRoute(match)
}
