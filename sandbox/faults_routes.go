package sandbox

import (
	"fmt"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// Faults per endpoint, so a partner can make one call fail while the rest
// work (Prism answers `Prefer: code=503` the same way):
//
//	cardterm sandbox --fault 'GET /v1/card/status=503,latency=2s'
//	curl -H 'Prefer: code=429' .../v1/user
//
// A RouteFault matches a method (or *) and a path pattern (path.Match: *
// stands for one segment, /v1/order/*); the first that matches applies its
// latency, then answers its status in the endpoint family's error shape
// (a 429 with Retry-After: 1). A request's own `Prefer: code=NNN` header
// (400-599) is answered the same way before any handler runs.

// RouteFault makes the requests of one endpoint slow or failing.
type RouteFault struct {
	Method  string        // GET, POST, ... or * for any
	Path    string        // a path pattern (path.Match)
	Status  int           // 400-599 to answer; 0 = only the latency
	Latency time.Duration // added before the answer
}

// String is the fault as --fault takes it.
func (f RouteFault) String() string {
	var parts []string
	if f.Status != 0 {
		parts = append(parts, strconv.Itoa(f.Status))
	}
	if f.Latency > 0 {
		parts = append(parts, "latency="+f.Latency.String())
	}
	return f.Method + " " + f.Path + "=" + strings.Join(parts, ",")
}

// matches reports whether r is a request of f's endpoint.
func (f RouteFault) matches(r *http.Request) bool {
	if f.Method != "*" && !strings.EqualFold(f.Method, r.Method) {
		return false
	}
	ok, err := path.Match(f.Path, r.URL.Path)
	return err == nil && ok
}

// ParseRouteFault reads 'METHOD PATH=STATUS,latency=DURATION' (either
// part may be left out, not both): 'GET /v1/card/status=503',
// 'POST /v1/card/freeze=latency=2s', '* /v1/wallet/*=500,latency=300ms'.
func ParseRouteFault(spec string) (RouteFault, error) {
	method, rest, ok := strings.Cut(strings.TrimSpace(spec), " ")
	target, effects, hasEffects := strings.Cut(strings.TrimSpace(rest), "=")
	if !ok || !hasEffects || method == "" || target == "" {
		return RouteFault{}, fmt.Errorf("fault %q: write 'METHOD PATH=STATUS,latency=DURATION', e.g. 'GET /v1/card/status=503,latency=2s'", spec)
	}
	f := RouteFault{Method: strings.ToUpper(method), Path: target}
	if !strings.HasPrefix(f.Path, "/") {
		return RouteFault{}, fmt.Errorf("fault %q: the path must start with /", spec)
	}
	if _, err := path.Match(f.Path, "/"); err != nil {
		return RouteFault{}, fmt.Errorf("fault %q: the path pattern is malformed", spec)
	}
	for _, part := range strings.Split(effects, ",") {
		part = strings.TrimSpace(part)
		if d, isLatency := strings.CutPrefix(part, "latency="); isLatency {
			latency, err := time.ParseDuration(d)
			if err != nil || latency <= 0 {
				return RouteFault{}, fmt.Errorf("fault %q: latency %q is not a positive duration such as 2s", spec, d)
			}
			f.Latency = latency
			continue
		}
		status, err := strconv.Atoi(part)
		if err != nil || status < 400 || status > 599 {
			return RouteFault{}, fmt.Errorf("fault %q: %q is neither an error status (400-599) nor latency=DURATION", spec, part)
		}
		f.Status = status
	}
	if f.Status == 0 && f.Latency == 0 {
		return RouteFault{}, fmt.Errorf("fault %q: give a status, a latency or both", spec)
	}
	return f, nil
}

// preferredCode reads `Prefer: code=NNN` (RFC 7240 syntax, as Prism takes
// it); 0 when the header asks for no code.
func preferredCode(r *http.Request) (int, error) {
	for _, value := range r.Header.Values("Prefer") {
		for _, pref := range strings.FieldsFunc(value, func(c rune) bool { return c == ',' || c == ';' }) {
			name, v, _ := strings.Cut(strings.TrimSpace(pref), "=")
			if !strings.EqualFold(strings.TrimSpace(name), "code") {
				continue
			}
			code, err := strconv.Atoi(strings.Trim(strings.TrimSpace(v), `"`))
			if err != nil || code < 400 || code > 599 {
				return 0, fmt.Errorf("the Prefer header asks for code=%s: give an error status from 400 to 599", strings.TrimSpace(v))
			}
			return code, nil
		}
	}
	return 0, nil
}

// faultMessage is the interface's message of a status it names, else "".
func faultMessage(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "Not authenticated"
	case http.StatusForbidden:
		return "Not authorized"
	case http.StatusInternalServerError:
		return "Internal server error"
	case http.StatusTooManyRequests:
		return "Too many requests"
	case 498:
		return "Invalid client key"
	case 499:
		return "Missing client key"
	}
	return ""
}

// writeFault answers status in the path's family shape.
func writeFault(w http.ResponseWriter, r *http.Request, status int, why string) {
	msg := faultMessage(status)
	if msg == "" {
		msg = http.StatusText(status)
	}
	if msg == "" {
		msg = "Error " + strconv.Itoa(status)
	}
	if status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	w.Header().Set("X-Sandbox-Fault", why)
	writeFamilyError(w, familyForPath(r.URL.Path), status, msg)
}

// answerRouteFault applies the first route fault matching r and a
// `Prefer: code` header. It reports whether it answered (the handler must
// not run); a latency alone waits and lets the handler answer.
func answerRouteFault(w http.ResponseWriter, r *http.Request, faults []RouteFault) bool {
	for _, f := range faults {
		if !f.matches(r) {
			continue
		}
		if f.Latency > 0 {
			t := time.NewTimer(f.Latency)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return true // the client is gone
			}
		}
		if f.Status != 0 {
			writeFault(w, r, f.Status, "--fault "+f.String())
			return true
		}
		break
	}
	code, err := preferredCode(r)
	switch {
	case err != nil:
		writeFamilyError(w, familyForPath(r.URL.Path), http.StatusBadRequest, err.Error())
		return true
	case code != 0:
		writeFault(w, r, code, "Prefer: code="+strconv.Itoa(code))
		return true
	}
	return false
}

// describeRoutes says which route faults are on, for the banner.
func describeRoutes(faults []RouteFault) []string {
	var out []string
	for _, f := range faults {
		out = append(out, f.String())
	}
	return out
}
