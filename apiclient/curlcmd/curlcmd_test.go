package curlcmd_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"cardterm/apiclient/curlcmd"
)

// hostile is text that breaks out of a badly quoted shell word in one
// shell or another: fish's \' inside single quotes, a quote, command
// substitutions of every shell, variables, a glob, ESC, CR, a bidi
// override and a byte that is not UTF-8.
const hostile = `\'; touch canary-fish; echo \' ' "'" '"'"' \\ \ $(touch canary-dollar) ` +
	"`touch canary-backtick` (touch canary-paren) $HOME ${HOME} %s %% * ~ {a,b} !! #\n" +
	"second line\tafter a tab \x1b[31m red \r \u202e evil \xff end \\"

// recorded is what the recording gateway received.
type recorded struct {
	mu            sync.Mutex
	header        http.Header
	body, rawPath string
}

func (r *recorded) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.header, r.body, r.rawPath = req.Header.Clone(), string(body), req.URL.RequestURI()
}

// shellsCardtermSupports are the shells a copied command must run in.
var shellsCardtermSupports = []string{"bash", "zsh", "dash", "fish"}

// A command holding hostile text in a header, the query and the body,
// piped into each shell as `cardterm api --dry-run | fish` does, sends
// real curl to a recording server with exactly those bytes, and no
// canary file appears.
func TestCommandRunsAlikeInEveryShell(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is not installed (apt-get install -y curl): the command is checked by running it")
	}
	gateway := &recorded{}
	server := httptest.NewServer(gateway)
	defer server.Close()
	password := "pa'ss\\\" $(touch canary-password)"
	cases := []struct {
		name      string
		body      string
		wantBody  string
		options   curlcmd.Options
		variables map[string]string
	}{
		{name: "raw body", body: hostile, wantBody: hostile},
		{name: "JSON body with a password variable", body: `{"username":"` + jsonText(hostile) + `","password":"x"}`,
			wantBody:  `{"username":"` + jsonText(hostile) + `","password":"` + password + `"}`,
			options:   curlcmd.Options{NeedsToken: true},
			variables: map[string]string{curlcmd.PasswordVariable: password, curlcmd.AccessTokenVariable: "tok'en"}},
	}
	for _, shell := range shellsCardtermSupports {
		path, err := exec.LookPath(shell)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed (.ci/run installs it): copied commands are checked in every shell", shell)
			}
			t.Skipf("%s is not installed (apt-get install -y zsh fish dash)", shell)
		}
		for _, c := range cases {
			t.Run(shell+"/"+c.name, func(t *testing.T) {
				req, _ := http.NewRequest(http.MethodPost, server.URL+"/v1/echo?note=a%27b%5C%24%28x%29", strings.NewReader(c.body))
				// A header holds no control character a gateway takes.
				headerValue := strings.NewReplacer("\n", " ", "\r", " ", "\x1b", " ", "\xff", "").Replace(hostile)
				req.Header.Set("X-Hostile", headerValue)
				command, _ := curlcmd.Command(req, []byte(c.body), c.options)
				dir := t.TempDir()
				run := exec.Command(path)
				run.Dir, run.Stdin = dir, strings.NewReader(command+"\n")
				run.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
				for name, value := range c.variables {
					run.Env = append(run.Env, name+"="+value)
				}
				if out, err := run.CombinedOutput(); err != nil {
					t.Fatalf("%v: %s\n%s", err, out, command)
				}
				gateway.mu.Lock()
				defer gateway.mu.Unlock()
				if gateway.body != c.wantBody {
					t.Errorf("body\n got %q\nwant %q\n%s", gateway.body, c.wantBody, command)
				}
				if got := gateway.header.Get("X-Hostile"); got != strings.TrimSpace(headerValue) {
					t.Errorf("header\n got %q\nwant %q\n%s", got, headerValue, command)
				}
				if got, want := gateway.header.Get("Authorization"), "Bearer "+c.variables[curlcmd.AccessTokenVariable]; c.options.NeedsToken && got != want {
					t.Errorf("Authorization %q, want %q", got, want)
				}
				if gateway.rawPath != "/v1/echo?note=a%27b%5C%24%28x%29" {
					t.Errorf("path %q", gateway.rawPath)
				}
				if files, _ := os.ReadDir(dir); len(files) != 0 {
					t.Errorf("the command ran something: %v appeared\n%s", files, command)
				}
			})
		}
	}
}

// jsonText is s as the inside of a JSON string.
func jsonText(s string) string {
	data, _ := json.Marshal(s)
	return string(data[1 : len(data)-1])
}

// The quoting shows no control character and no backslash inside single
// quotes, so a terminal that shows (or a shell that reads) the command
// can be fooled by neither.
func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "''"},
		{"plain text", "'plain text'"},
		{"it's", `'it'"'"'s'`},
		{`a\'b`, `'a'"\\""'"'b'`},
		{"red \x1b[31m", `'red '"$(printf '\033')"'[31m'`},
		{"\u202e", `"$(printf '\342\200\256')"`},
		{"bad \xff byte", `'bad '"$(printf '\377')"' byte'`},
		{"line\nnext\ttab", "'line\nnext\ttab'"},
		{"nul\x00", "'nul'"},
		{"\x00", "''"},
	} {
		if got := curlcmd.Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// A body with a NUL byte, which no shell word carries, is read from a
// file the caller names.
func TestCommandBodyWithNULReadsAFile(t *testing.T) {
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/v1/x", nil)
	command, variables := curlcmd.Command(req, []byte("a\x00b"), curlcmd.Options{})
	if !strings.Contains(command, `--data-binary "@$CARDTERM_BODY_FILE"`) || len(variables) != 1 || variables[0] != curlcmd.BodyFileVariable {
		t.Errorf("%s %v", command, variables)
	}
	if bytes.IndexByte([]byte(command), 0) >= 0 {
		t.Error("the command holds the NUL")
	}
}

// BenchmarkCommand writes a login request (a JSON body with a password
// spliced in as a variable, a hostile header) as the copy does.
func BenchmarkCommand(b *testing.B) {
	body := []byte(`{"username":"alice@demo.test","password":"demo-pass","note":"it's \\ here"}`)
	req, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:8080/v1/auth/login", nil)
	req.Header.Set("X-Hostile", hostile[:40])
	req.Header.Set("x-client-key", "ck_sandbox_acme")
	b.ReportAllocs()
	for b.Loop() {
		curlcmd.Command(req, body, curlcmd.Options{})
	}
}
