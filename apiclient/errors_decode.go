package apiclient

// Reading a gateway's error answer: whichever of the interface's error
// shapes it has, its message, field errors and details, and Retry-After.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// errorBody is the union of every error shape the interface lists.
type errorBody struct {
	Message          json.RawMessage `json:"message"`
	Errors           json.RawMessage `json:"errors"`
	Error            json.RawMessage `json:"error"`
	ErrorDescription json.RawMessage `json:"error_description"`
	Details          json.RawMessage `json:"details"`
}

// decodeError turns a non-2xx answer into an *Error. body is what was read
// of it: at most maxErrorBody bytes, and one more when the answer goes on
// (the error then keeps the head and says it was cut). now is used to read
// a Retry-After given as an HTTP date.
func decodeError(op string, resp *http.Response, body []byte, now time.Time) *Error {
	e := &Error{Op: op, Status: resp.StatusCode}
	e.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), now)
	cut := len(body) > maxErrorBody
	if cut {
		body = body[:maxErrorBody]
	}
	e.Body, e.BodyCut = body, cut

	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		e.Message = fmt.Sprintf("gateway answered %s with an empty body", statusText(resp.StatusCode))
		return e
	}
	var eb errorBody
	switch {
	case trimmed[0] != '{':
		e.Message = fmt.Sprintf("gateway answered %s with a non-JSON body", statusText(resp.StatusCode))
		return e
	case cut:
		eb = errorHead(trimmed)
	case json.Unmarshal(trimmed, &eb) != nil:
		e.Message = fmt.Sprintf("gateway answered %s with a non-JSON body", statusText(resp.StatusCode))
		return e
	}
	message := rawText(eb.Message)
	code := rawText(eb.Error)
	desc := rawText(eb.ErrorDescription)
	e.Code = code
	e.Fields = rawFieldErrors(eb.Errors)
	details, detailFields := rawDetails(eb.Details)
	e.Details = details
	e.Fields = append(e.Fields, detailFields...)
	switch {
	case message != "":
		e.Message = message
	case desc != "":
		e.Message = desc
	case code != "":
		e.Message = code
	case len(e.Details) > 0:
		e.Message = e.Details[0]
		e.Details = e.Details[1:]
	default:
		e.Message = statusSentence(resp.StatusCode)
	}
	if len(e.Details) == 0 {
		e.Details = nil
	}
	return e
}

// rawText reads a JSON value meant as a message: a string, an array of
// strings (joined), or anything else printed compactly.
func rawText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, "; ")
	}
	var fe FieldError
	if raw[0] == '{' && json.Unmarshal(raw, &fe) == nil && fe.Message != "" {
		return fe.Message
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String()
	}
	return string(raw)
}

// rawFieldErrors reads `errors`: normally [{field, message}], tolerating
// plain strings and a {field: message} object.
func rawFieldErrors(raw json.RawMessage) []FieldError {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) == nil {
		var out []FieldError
		for _, it := range items {
			var fe FieldError
			if json.Unmarshal(it, &fe) == nil && (fe.Field != "" || fe.Message != "") {
				out = append(out, fe)
				continue
			}
			if t := rawText(it); t != "" {
				out = append(out, FieldError{Message: t})
			}
		}
		return out
	}
	return objectFields(raw)
}

// rawDetails reads `details`: an array of strings, or a {field: message}
// object (the general error format), or an array of field errors.
func rawDetails(raw json.RawMessage) ([]string, []FieldError) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	switch raw[0] {
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil, nil
		}
		var details []string
		var fields []FieldError
		for _, it := range items {
			var s string
			if json.Unmarshal(it, &s) == nil {
				details = append(details, s)
				continue
			}
			var fe FieldError
			if json.Unmarshal(it, &fe) == nil && (fe.Field != "" || fe.Message != "") {
				fields = append(fields, fe)
				continue
			}
			if t := rawText(it); t != "" {
				details = append(details, t)
			}
		}
		return details, fields
	case '{':
		return nil, objectFields(raw)
	default:
		if t := rawText(raw); t != "" {
			return []string{t}, nil
		}
		return nil, nil
	}
}

// objectFields reads {field: message}, sorted by field for stable output.
func objectFields(raw json.RawMessage) []FieldError {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	keys := slices.Sorted(maps.Keys(m))
	out := make([]FieldError, 0, len(keys))
	for _, k := range keys {
		out = append(out, FieldError{Field: k, Message: rawText(m[k])})
	}
	return out
}

// parseRetryAfter reads Retry-After as delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		if secs > 365*24*3600 {
			secs = 365 * 24 * 3600
		}
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			// Capped like the seconds form: a date far ahead is no
			// reason to say "retry in 639128h".
			return min(d, 365*24*time.Hour)
		}
	}
	return 0
}
