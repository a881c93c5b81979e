package sandbox

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// signInPageURL starts an OAuth sign-in on the sandbox at base and returns
// the hosted sign-in page's URL it answers.
func signInPageURL(t *testing.T, base string) string {
	t.Helper()
	q := url.Values{"client_id": {DemoClientKey}, "code_challenge": {"x"}, "code_challenge_method": {"S256"}}
	res, err := http.Get(base + "/v1/auth/oauth/authorize/initiate?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body struct{ URL string }
	_ = json.NewDecoder(res.Body).Decode(&body)
	return body.URL
}

func TestStartDescribeClose(t *testing.T) {
	r, err := Start("127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.URL, "http://127.0.0.1:") || r.Server == nil {
		t.Fatalf("running %+v", r)
	}
	if page := signInPageURL(t, r.URL); !strings.HasPrefix(page, r.URL+"/oauth/sign-in?session=") {
		t.Fatalf("hosted page url %q", page)
	}
	d := r.Describe()
	for _, s := range []string{r.URL, DemoClientKey, DemoSecretKey, "ck_live_acme", "ck_sandbox_globex", "demo-pass", "x-us-env", "olga@acme.test", "gus@globex.test"} {
		if !strings.Contains(d, s) {
			t.Errorf("Describe lacks %q:\n%s", s, d)
		}
	}
	for _, u := range DemoUsers() {
		if !strings.Contains(d, u.Username) {
			t.Errorf("Describe lacks %s", u.Username)
		}
	}
	if strings.Contains(d, "\x1b") {
		t.Error("Describe carries escapes")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(r.URL + "/v1/user"); err == nil {
		t.Fatal("still serving after Close")
	}
}

func TestDemoUsersAndCredentials(t *testing.T) {
	us := DemoUsers()
	if len(us) != 11 || us[0].Username != "alice@demo.test" || us[0].Password != "demo-pass" {
		t.Fatalf("demo users %+v", us)
	}
	regions := map[string]string{}
	for _, u := range us {
		regions[u.Username] = u.Region
		if u.Summary == "" {
			t.Errorf("%s has no summary", u.Username)
		}
	}
	if regions["sam@demo.test"] != "us" || regions["alice@demo.test"] != "eu" {
		t.Fatalf("regions %v", regions)
	}
	cs := Credentials()
	if len(cs) != 3 || cs[0].ClientKey != DemoClientKey || cs[0].SecretKey != DemoSecretKey || cs[0].ClientID != "acme-sandbox" {
		t.Fatalf("credentials %+v", cs)
	}
	cs[0].ClientKey = "mutated"
	if Credentials()[0].ClientKey != DemoClientKey {
		t.Fatal("Credentials returns shared slice")
	}
}

// The banner says which faults are on, so a rehearsal of a bad day is
// never mistaken for a broken gateway.
func TestDescribeListsActiveFaults(t *testing.T) {
	r, err := Start("127.0.0.1:0", Options{Faults: Faults{Latency: 3 * time.Second, ErrorRate: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d := r.Describe()
	if !strings.Contains(d, "Faults       latency 3s on every request; 10% of requests answered 500") {
		t.Fatalf("Describe:\n%s", d)
	}
	r.Server.SetFaults(Faults{})
	if d := r.Describe(); !strings.Contains(d, "Faults       none") {
		t.Fatalf("Describe after clearing:\n%s", d)
	}
}

// Listening on every interface, links carry an address another machine
// can open, never [::] or 0.0.0.0; PublicURL overrides it.
func TestLinksUseAReachableAddress(t *testing.T) {
	r, err := Start("0.0.0.0:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, bad := range []string{"0.0.0.0", "[::]"} {
		if strings.Contains(r.LinkURL, bad) || strings.Contains(r.URL, bad) {
			t.Fatalf("links use %q: %s / %s", bad, r.LinkURL, r.URL)
		}
	}
	if want := lanAddress(); want != nil && !strings.Contains(r.LinkURL, want.String()) {
		t.Fatalf("links use %s, not the LAN address %s", r.LinkURL, want)
	}

	pub, err := Start("127.0.0.1:0", Options{PublicURL: "https://demo.example.test/"})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	if pub.LinkURL != "https://demo.example.test" || !strings.HasPrefix(pub.URL, "http://127.0.0.1:") {
		t.Fatalf("PublicURL: links %s, url %s", pub.LinkURL, pub.URL)
	}
	if page := signInPageURL(t, pub.URL); !strings.HasPrefix(page, "https://demo.example.test/oauth/sign-in?session=") {
		t.Fatalf("hosted page url %q", page)
	}
	if !strings.Contains(pub.Describe(), "Links use    https://demo.example.test") {
		t.Fatalf("Describe:\n%s", pub.Describe())
	}
}
