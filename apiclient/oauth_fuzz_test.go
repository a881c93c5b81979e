package apiclient

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"unicode"
)

// The OAuth initiate answer is read for the sign-in link whatever shape it
// has. A link it accepts is an absolute http(s) URL holding no control,
// space, bidi or other invisible character (what is opened and copied is
// what the screen shows); one it refuses is refused with a message that
// never quotes it.
func FuzzInitiateLink(f *testing.F) {
	for _, seed := range []string{
		`{"url":"https://gw.example/oauth/authorize?session=abc"}`,
		`{"authorizationUrl":"http://127.0.0.1:8080/a"}`,
		`"https://gw.example/b"`,
		`{"url":"javascript:alert(1)"}`,
		`{"url":"https://gw.example/\u202egnp.exe"}`,
		`{"url":"https://gw.example/\u200bsignin"}`,
		`{"href":"  https://gw.example/c  "}`,
		`{"url":"https://gw.example/a b"}`,
		`{"url":"https://gw.exa\u0000mple/"}`,
		`{"url":"//gw.example/"}`, `{"url":1}`, `[]`, `null`, `{`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return // the client decodes the body before it looks for the link
		}
		link := initiateLink(raw)
		err := checkGatewayLink("AuthorizeInitiate", link, "the address of a sign-in page")
		if err != nil {
			if link != "" && len(link) > 8 && strings.Contains(ErrorMessage(err), link) {
				t.Fatalf("the refusal quotes the link: %q", ErrorMessage(err))
			}
			return
		}
		u, perr := url.Parse(link)
		if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			t.Fatalf("accepted %q: not an absolute http(s) URL", link)
		}
		for _, r := range link {
			if unicode.IsControl(r) || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
				t.Fatalf("accepted %q holding %U", link, r)
			}
		}
	})
}
