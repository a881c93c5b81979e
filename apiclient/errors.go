package apiclient

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Error is the one error type every operation returns, whatever shape the
// gateway used, so screens handle failures in a single way.
type Error struct {
	// Op is the operation that failed, e.g. "CardStatus".
	Op string
	// Status is the HTTP status; 0 when no answer arrived (transport error,
	// timeout, cancellation, a request that could not be built).
	Status int
	// Message is the human message: the body's message, error_description or
	// error, or a sentence made from the status when the body had none.
	Message string
	// Code is the body's `error` field when present (a machine-ish code or
	// a short title, depending on the endpoint family).
	Code string
	// Details holds `details` when it is an array of strings.
	Details []string
	// Fields holds `errors[]` and `details{field: message}`.
	Fields []FieldError
	// RetryAfter is how long the gateway asked us to wait (429, 503).
	RetryAfter time.Duration
	// Err is the transport or decoding cause, if any.
	Err error
	// Body is the error answer as the gateway sent it, for the inspector:
	// its first maxErrorBody bytes, BodyCut when it went on. Our own
	// secrets are redacted from it as from the texts above.
	Body    []byte
	BodyCut bool
}

// GatewayAnswer is the error answer's body as it was read and whether it
// was cut; the inspector finds it through this method.
func (e *Error) GatewayAnswer() (body []byte, cut bool) { return e.Body, e.BodyCut }

// rewriteGatewayText passes every text of e that the gateway wrote (message,
// code, details, field messages) through clean: the one place that knows
// which texts to redact.
func (e *Error) rewriteGatewayText(clean func(string) string) {
	e.Message = clean(e.Message)
	e.Code = clean(e.Code)
	for i := range e.Details {
		e.Details[i] = clean(e.Details[i])
	}
	for i := range e.Fields {
		e.Fields[i].Message = clean(e.Fields[i].Message)
	}
}

const (
	// maxGatewayText is the longest text of an error kept as the gateway
	// wrote it (its message, code, a detail, a field's name or message),
	// in characters: what is shown never depends on what the gateway sent.
	maxGatewayText = 300
	// maxGatewayItems is how many field errors, and how many details, an
	// error keeps; a last detail says how many more there were.
	maxGatewayItems = 20
)

// bound cuts every gateway text of e to maxGatewayText characters (ending
// it with "…") and its lists to maxGatewayItems, once, when the answer
// arrives, so nothing drawn later costs more for a longer message.
func (e *Error) bound() {
	e.rewriteGatewayText(func(s string) string { return cutText(s, maxGatewayText) })
	more := 0
	if len(e.Fields) > maxGatewayItems {
		more += len(e.Fields) - maxGatewayItems
		e.Fields = e.Fields[:maxGatewayItems]
	}
	for i := range e.Fields {
		e.Fields[i].Field = cutText(e.Fields[i].Field, maxGatewayText)
	}
	if len(e.Details) > maxGatewayItems {
		more += len(e.Details) - maxGatewayItems
		e.Details = e.Details[:maxGatewayItems]
	}
	if more > 0 {
		e.Details = append(e.Details, fmt.Sprintf("%d more not shown", more))
	}
}

// cutText is s cut to n characters, the last of them "…".
func cutText(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	return s[:i] + "…"
}

// Error is a readable one-liner. It never includes tokens or keys.
func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	b.WriteString(e.summary())
	if cause := e.causeText(); cause != "" {
		b.WriteString(": ")
		b.WriteString(cause)
	}
	return b.String()
}

// causeText is Err on one line, or "" when Message already says it all
// (cancellation, our own timeout) or repeats it.
func (e *Error) causeText() string {
	if e.Err == nil || errors.Is(e.Err, errCancelled) || errors.Is(e.Err, errTimeout) || errors.Is(e.Err, errSetting) ||
		errors.Is(e.Err, errRateLimited) {
		return ""
	}
	cause := oneLine(e.Err.Error())
	if strings.Contains(e.Message, cause) {
		return ""
	}
	return cause
}

// summary is the message, the status and the field and detail lists, on one
// line, without the operation name.
func (e *Error) summary() string {
	var b strings.Builder
	msg := e.Message
	if msg == "" {
		msg = statusSentence(e.Status)
	}
	b.WriteString(oneLine(msg))
	if e.Status != 0 {
		fmt.Fprintf(&b, " (%d)", e.Status)
	}
	var parts []string
	for _, f := range e.Fields {
		switch {
		case f.Field != "" && f.Message != "":
			parts = append(parts, f.Field+": "+f.Message)
		case f.Field != "":
			parts = append(parts, f.Field)
		case f.Message != "":
			parts = append(parts, f.Message)
		}
	}
	for _, d := range e.Details {
		if d != "" && d != e.Message {
			parts = append(parts, d)
		}
	}
	if len(parts) > 0 {
		b.WriteString(": ")
		b.WriteString(oneLine(cutText(strings.Join(parts, "; "), 3*maxGatewayText)))
	}
	if e.RetryAfter > 0 && !errors.Is(e.Err, errRateLimited) { // that one names the time
		fmt.Fprintf(&b, ", retry in %s", e.RetryAfter.Round(time.Second))
	}
	return b.String()
}

// Unwrap exposes the cause, so errors.Is(err, context.Canceled) and
// errors.Is(err, context.DeadlineExceeded) work through an *Error.
func (e *Error) Unwrap() error { return e.Err }

// IsStatus reports whether err is an *Error the gateway answered with status.
func IsStatus(err error, status int) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == status
}

// IsNotFound is the check screens make for "nothing there yet" (no card, no
// credit wallet, no consent set), which is a state rather than a failure.
func IsNotFound(err error) bool { return IsStatus(err, http.StatusNotFound) }

// IsUnauthorized tells screens the session is gone and sign-in is needed.
func IsUnauthorized(err error) bool { return IsStatus(err, http.StatusUnauthorized) }

// ErrorMessage is the one line shown to users, e.g. "Card is not frozen (400)";
// the operation name is left out because the screen already gives context.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		s := e.summary()
		if cause := e.causeText(); cause != "" && e.Status == 0 {
			s += ": " + cause
		}
		return s
	}
	return oneLine(err.Error())
}

// UserMessage is the error as a notice shows it: ErrorMessage, without
// the operation's Go name that Error puts first for logs.
func (e *Error) UserMessage() string { return ErrorMessage(e) }

// Sentinels that the client tags Error.Err with, next to the real cause, so
// the one-liners do not repeat what Message already says.
var (
	errRequest   = errors.New("request could not be made")
	errCancelled = errors.New("request cancelled")
	errTimeout   = errors.New("request timed out")
)

// tagged is a cause with a sentinel: errors.Is matches both, and its text
// is the cause's alone (errors.Join would add a newline).
type tagged struct{ tag, err error }

func (t tagged) Error() string   { return t.err.Error() }
func (t tagged) Unwrap() []error { return []error{t.tag, t.err} }

func tag(sentinel, err error) error {
	if err == nil {
		return sentinel
	}
	return tagged{tag: sentinel, err: err}
}

// statusText is "502 Bad Gateway", or just the number for codes net/http
// has no name for (498, 499).
func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return fmt.Sprintf("%d %s", code, t)
	}
	return strconv.Itoa(code)
}

// statusSentence is a message for answers whose body had none.
func statusSentence(code int) string {
	switch code {
	case 0:
		return "request failed"
	case 401:
		return "Not authenticated"
	case 403:
		return "Not authorized"
	case 429:
		return "Too many requests"
	case 498:
		return "Invalid client key"
	case 499:
		return "Missing client key"
	}
	if t := http.StatusText(code); t != "" {
		return t
	}
	return "gateway answered " + strconv.Itoa(code)
}

// oneLine keeps a message on one line, whatever the gateway put in it.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// asError is errors.As for *Error, for brevity.
func asError(err error, target **Error) bool { return errors.As(err, target) }
