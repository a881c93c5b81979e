package apiclient

import "net/http"

// NewHTTPClient is an HTTP client for a peer that is not the gateway (the
// partner's server that `cardterm listen --forward-to` posts to), with
// the settings of cfg that apply to any peer: Timeout bounds one request
// (DefaultTimeout when 0), Logger gets a line per exchange (debuglog.go),
// HTTPClient's transport (a proxy) is used when set, and no redirect is
// followed.
func NewHTTPClient(cfg Config) *http.Client {
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	hc := &http.Client{
		Transport: http.DefaultTransport.(*http.Transport).Clone(),
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	if cfg.HTTPClient != nil && cfg.HTTPClient.Transport != nil {
		hc.Transport = cfg.HTTPClient.Transport
	}
	return withDebugLog(hc, cfg.Logger)
}
