package sandbox

import (
	"encoding/json"
	"net/http"
)

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"message":"Internal server error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeMessage answers {message}: card, wallet, delegation, order, user,
// webhook and auth endpoints.
func writeMessage(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"message": msg})
}

// fieldError is one entry of a validation error's errors[].
type fieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// writeValidation answers {message, errors:[{field, message}]} (view-PIN
// token validation and similar 422s).
func writeValidation(w http.ResponseWriter, status int, msg string, errs ...fieldError) {
	if errs == nil {
		errs = []fieldError{}
	}
	writeJSON(w, status, map[string]any{"message": msg, "errors": errs})
}

// writeConsentError answers {error, details:[string]}: consent endpoints,
// their 498 and 499 included.
func writeConsentError(w http.ResponseWriter, status int, msg string, details ...string) {
	if details == nil {
		details = []string{}
	}
	writeJSON(w, status, map[string]any{"error": msg, "details": details})
}

// writeOAuthError answers the general format {error, error_description,
// details:{field: msg}} (OAuth token and initiate endpoints).
func writeOAuthError(w http.ResponseWriter, status int, code, desc string, details map[string]string) {
	if details == nil {
		details = map[string]string{}
	}
	writeJSON(w, status, map[string]any{"error": code, "error_description": desc, "details": details})
}

// oauthCode is the OAuth `error` value for a status the middleware produced.
func oauthCode(status int) string {
	switch status {
	case http.StatusUnauthorized, 498, 499:
		return "invalid_client"
	case http.StatusTooManyRequests:
		return "too_many_requests"
	case http.StatusInternalServerError:
		return "server_error"
	case http.StatusNotFound:
		return "not_found"
	}
	return "invalid_request"
}

// writeFamilyError answers status and msg in fam's shape.
func writeFamilyError(w http.ResponseWriter, fam family, status int, msg string) {
	switch fam {
	case familyConsent:
		writeConsentError(w, status, msg)
	case familyOAuth:
		writeOAuthError(w, status, oauthCode(status), msg, nil)
	default:
		writeMessage(w, status, msg)
	}
}

// writeErrorMessage answers {error, message}: the chain configuration's 404
// when no network matches.
func writeErrorMessage(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]string{"error": code, "message": msg})
}
