package gatewaytest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// violations is a testing.TB that keeps the failures it is given.
type violations struct {
	testing.TB
	mu   sync.Mutex
	seen []string
}

func (v *violations) Errorf(format string, args ...any) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.seen = append(v.seen, format)
}

// The strict gateway catches what the app used to send: the start's
// question without credentials, a guessed X-Client-ID's absence, a path
// outside the interface, a body member the interface does not document.
func TestStrictGatewayCatchesEachBrokenRule(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Cardterm-Sandbox", "1")
		w.WriteHeader(200)
	})
	cases := []struct {
		name, method, path, body string
		headers                  map[string]string
		broken                   bool
	}{
		{"webhooks without a token", "GET", "/v1/webhooks", "", nil, true},
		{"webhooks with one", "GET", "/v1/webhooks", "", map[string]string{"Authorization": "Bearer t"}, false},
		{"orders without X-Client-ID", "GET", "/v1/order/products/available", "", map[string]string{"Authorization": "Bearer t", "x-client-key": "ck"}, true},
		{"a sandbox-only path", "POST", "/sandbox/trigger", "{}", map[string]string{"x-client-key": "ck", "x-secret-key": "sk"}, true},
		{"an undocumented body member", "POST", "/v1/auth/login", `{"username":"a","password":"b","otp":"1"}`, map[string]string{"x-client-key": "ck", "Content-Type": "application/json"}, true},
		{"a login as documented", "POST", "/v1/auth/login", `{"username":"a","password":"b"}`, map[string]string{"x-client-key": "ck", "Content-Type": "application/json"}, false},
		{"a body on a read", "GET", "/v1/user", `{}`, map[string]string{"x-client-key": "ck", "Authorization": "Bearer t"}, true},
	}
	for _, c := range cases {
		v := &violations{TB: t}
		g := &Strict{T: v, Next: ok}
		r := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
		for k, val := range c.headers {
			r.Header.Set(k, val)
		}
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		if got := len(v.seen) > 0; got != c.broken {
			t.Errorf("%s: violation %t, want %t (%v)", c.name, got, c.broken, v.seen)
		}
		if w.Header().Get("X-Cardterm-Sandbox") != "" {
			t.Errorf("%s: the answer announced the sandbox", c.name)
		}
	}
}
