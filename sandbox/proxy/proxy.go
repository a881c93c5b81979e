// Package proxy is cardterm's validating proxy: it forwards a partner
// app's requests to a gateway unchanged and checks each request and each
// answer against the interface (its OpenAPI description), reporting the
// rules broken as the traffic passes (cardterm proxy).
package proxy

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxBody bounds a request or an answer the proxy holds to check.
const maxBody = 32 << 20

// Exchange is one request that went through and what came back; it
// carries no header and no body, so no secret reaches what shows it.
type Exchange struct {
	Time       time.Time `json:"time"`
	Method     string    `json:"method"`
	Path       string    `json:"path"`
	Operation  string    `json:"operation,omitempty"` // the interface's, such as PUT /v1/webhooks/{id}
	Status     int       `json:"status"`
	DurationMs int64     `json:"durationMs"`
	// Error says why no answer came (the gateway unreachable).
	Error      string      `json:"error,omitempty"`
	Violations []Violation `json:"violations"`
}

// Options configure a Proxy.
type Options struct {
	// To is the gateway's base URL.
	To string
	// Client sends the requests on; nil = one that neither follows
	// redirects nor asks for compression.
	Client *http.Client
	// OnExchange is called with each exchange once its answer is sent.
	OnExchange func(Exchange)
}

// Proxy is an http.Handler forwarding to one gateway.
type Proxy struct {
	to     string
	host   string
	client *http.Client
	spec   *spec
	report func(Exchange)
}

// hopHeaders belong to one connection and are not passed on (RFC 9110,
// section 7.6.1).
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// New checks opts and loads the rules.
func New(opts Options) (*Proxy, error) {
	u, err := url.Parse(opts.To)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--to %q is not an http(s) URL", opts.To)
	}
	sp, err := loadSpec()
	if err != nil {
		return nil, err
	}
	client := opts.Client
	if client == nil {
		transport := http.DefaultTransport.(*http.Transport).Clone()
		transport.DisableCompression = true // the app's Accept-Encoding, or none, goes as sent
		client = &http.Client{Transport: transport, Timeout: 2 * time.Minute,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	report := opts.OnExchange
	if report == nil {
		report = func(Exchange) {}
	}
	return &Proxy{to: strings.TrimRight(u.String(), "/"), host: u.Host, client: client, spec: sp, report: report}, nil
}

// ServeHTTP checks the request, forwards it, checks the answer and sends
// it back as it came.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	ex := Exchange{Time: start.UTC(), Method: r.Method, Path: r.URL.Path, Violations: []Violation{}}
	defer func() { ex.DurationMs = time.Since(start).Milliseconds(); p.report(redacted(ex, r.Header)) }()
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		ex.Status, ex.Error = http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body could not be read whole (at most %d MiB)", maxBody>>20)
		http.Error(w, ex.Error, ex.Status)
		return
	}
	op := p.checkRequest(r, body, &ex)
	answer, err := p.forward(r, body)
	if err != nil {
		ex.Status, ex.Error = http.StatusBadGateway, "no answer from the gateway: "+err.Error()
		http.Error(w, ex.Error, ex.Status)
		return
	}
	ex.Status = answer.status
	if op != nil {
		p.checkAnswer(op, answer, &ex)
	}
	for k, v := range answer.header {
		w.Header()[k] = v
	}
	w.WriteHeader(answer.status)
	_, _ = w.Write(answer.body)
}

// checkRequest finds the request's operation and checks the request; it
// returns the operation (nil when none matches).
func (p *Proxy) checkRequest(r *http.Request, body []byte, ex *Exchange) *operation {
	op, values := p.spec.find(r.Method, r.URL.Path)
	if op == nil {
		ex.Violations = append(ex.Violations, Violation{Where: "request",
			Rule: "the interface's endpoints", Detail: "no operation of the interface is " + r.Method + " " + r.URL.Path})
		return nil
	}
	ex.Operation = op.method + " " + op.path
	ex.Violations = append(ex.Violations, p.spec.checkParameters(op, r, values)...)
	if p.spec.needsBearer(op) {
		scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			ex.Violations = append(ex.Violations, Violation{Where: "request",
				Rule: "Authorization: `Bearer <ACCESS_TOKEN>` for user-authenticated endpoints", Detail: "no bearer token was sent"})
		}
	}
	requestBody := p.spec.resolve(op.op["requestBody"])
	if requestBody == nil {
		return op
	}
	if required, _ := requestBody["required"].(bool); required && len(bytes.TrimSpace(body)) == 0 {
		ex.Violations = append(ex.Violations, Violation{Where: "request", Rule: "the body of " + ex.Operation + " (required)", Detail: "no body was sent"})
		return op
	}
	if schema := jsonSchemaOf(p.spec, requestBody); schema != nil && len(bytes.TrimSpace(body)) > 0 {
		for _, pr := range p.spec.checkJSON(schema, body) {
			ex.Violations = append(ex.Violations, Violation{Where: "request", Rule: fieldRule("body", pr), Detail: describe(pr)})
		}
	}
	return op
}

// jsonSchemaOf is the JSON schema of a request body or an answer.
func jsonSchemaOf(sp *spec, n node) node {
	content, _ := n["content"].(node)
	media, _ := content["application/json"].(node)
	return sp.resolve(media["schema"])
}

// describe is a problem's detail: the field and why.
func describe(pr problem) string {
	if pr.field == "" {
		return pr.why
	}
	return pr.field + ": " + pr.why
}

// answer is the gateway's answer, held whole.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// forward sends the request on with its body and headers as they came
// (but the connection's own) and reads the answer whole.
func (p *Proxy) forward(r *http.Request, body []byte) (answer, error) {
	target := r.RequestURI // the request target exactly as the app wrote it
	if !strings.HasPrefix(target, "/") {
		target = r.URL.RequestURI()
	}
	out, err := http.NewRequestWithContext(r.Context(), r.Method, p.to+target, bytes.NewReader(body))
	if err != nil {
		return answer{}, err
	}
	out.Header = r.Header.Clone()
	for _, h := range hopHeaders {
		out.Header.Del(h)
	}
	if _, ok := r.Header["User-Agent"]; !ok {
		out.Header["User-Agent"] = []string{""} // none, as the app sent none
	}
	resp, err := p.client.Do(out)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return answer{}, err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return answer{}, err
	}
	if len(got) > maxBody {
		return answer{}, fmt.Errorf("the answer is over %d MiB", maxBody>>20)
	}
	header := resp.Header.Clone()
	for _, h := range hopHeaders {
		header.Del(h)
	}
	header.Del("Content-Length") // set again from the body
	return answer{status: resp.StatusCode, header: header, body: got}, nil
}

// checkAnswer checks the gateway's answer against the operation: a
// status it lists, the headers it requires, the body's shape.
func (p *Proxy) checkAnswer(op *operation, a answer, ex *Exchange) {
	responses, _ := op.op["responses"].(node)
	code := strconv.Itoa(a.status)
	declared, ok := responses[code]
	if !ok {
		declared, ok = responses[code[:1]+"XX"]
	}
	if !ok {
		declared, ok = responses["default"]
	}
	if !ok {
		ex.Violations = append(ex.Violations, Violation{Where: "response", Rule: "the answers of " + ex.Operation + ": " + statusList(responses),
			Detail: "status " + code + " is not one of them"})
		return
	}
	response := p.spec.resolve(declared)
	headers, _ := response["headers"].(node)
	for name, h := range headers {
		if required, _ := p.spec.resolve(h)["required"].(bool); required && a.header.Get(name) == "" {
			ex.Violations = append(ex.Violations, Violation{Where: "response", Rule: "header " + name + " on a " + code + " answer", Detail: "missing"})
		}
	}
	schema := jsonSchemaOf(p.spec, response)
	if schema == nil || !strings.Contains(a.header.Get("Content-Type"), "json") {
		return
	}
	body := a.body
	if strings.EqualFold(a.header.Get("Content-Encoding"), "gzip") {
		zr, err := gzip.NewReader(bytes.NewReader(a.body))
		if err == nil {
			body, err = io.ReadAll(io.LimitReader(zr, maxBody))
		}
		if err != nil {
			ex.Violations = append(ex.Violations, Violation{Where: "response", Rule: "Content-Encoding: gzip", Detail: "the answer is not valid gzip"})
			return
		}
	}
	for _, pr := range p.spec.checkJSON(schema, body) {
		ex.Violations = append(ex.Violations, Violation{Where: "response", Rule: fieldRule("answer", pr), Detail: describe(pr)})
	}
}

// statusList names the statuses an operation's answers may have.
func statusList(responses node) string {
	codes := make([]string, 0, len(responses))
	for code := range responses {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	return strings.Join(codes, ", ")
}

// secretHeaders are the request headers whose values must never show.
var secretHeaders = []string{"Authorization", "X-Secret-Key", "X-Client-Key", "X-Client-Id", "Cookie"}

// redacted removes from an exchange's texts any value of a secret header
// of the request (a checker's message could quote one).
func redacted(ex Exchange, h http.Header) Exchange {
	var secrets []string
	for _, name := range secretHeaders {
		for _, v := range h.Values(name) {
			secrets = append(secrets, v)
			if _, token, ok := strings.Cut(v, " "); ok {
				secrets = append(secrets, token)
			}
		}
	}
	scrub := func(s string) string {
		for _, secret := range secrets {
			if len(secret) >= 4 {
				s = strings.ReplaceAll(s, secret, "[redacted]")
			}
		}
		return s
	}
	ex.Error = scrub(ex.Error)
	for i := range ex.Violations {
		ex.Violations[i].Detail = scrub(ex.Violations[i].Detail)
	}
	return ex
}
