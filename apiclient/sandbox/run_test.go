package sandbox

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestStartDescribeClose(t *testing.T) {
	r, err := Start("127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.URL, "http://127.0.0.1:") || r.Server == nil {
		t.Fatalf("running %+v", r)
	}
	q := url.Values{"client_id": {DemoClientKey}, "code_challenge": {"x"}, "code_challenge_method": {"S256"}}
	res, err := http.Get(r.URL + "/v1/auth/oauth/authorize/initiate?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	var body struct{ URL string }
	_ = json.NewDecoder(res.Body).Decode(&body)
	res.Body.Close()
	if !strings.HasPrefix(body.URL, r.URL+"/oauth/sign-in?session=") {
		t.Fatalf("hosted page url %q", body.URL)
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
