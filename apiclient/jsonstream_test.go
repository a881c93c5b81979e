package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"
)

// streamCases are arrays the stream reader must judge exactly as
// encoding/json does, whatever the read sizes.
var streamCases = []string{
	`[]`, ` [ ] `, "[\n{}\n]\n", `[{"a":1}]`, `[1,2,3]`, `[-0.5e+10,0,1E3,true,false,null]`,
	`[{"a":"x\"y\\z\u00e9\n"},{"b":[1,{"c":[]}]}]`, `["tab\there"]`, `[{"k":"v"} , {"k":"w"}]`,
	`[{"id":"a","name":"é ü 🙂"}]`, `null`, " null\n",
	// invalid
	``, ` `, `{}`, `[`, `[1,]`, `[,1]`, `[1 2]`, `[01]`, `[1.]`, `[-]`, `[1e]`, `[tru]`, `[nul]`,
	`["a]`, `["\x"]`, "[\"ctl\x01\"]", `["\u12G4"]`, `[{"a"}]`, `[{"a":1,}]`, `[{1:2}]`,
	`[{"a":1}`, `[1]]`, `[1] x`, `[1] [2]`, `[{"a":[1,2}]`, `[}`, `x`, `nul`, `null x`, `nullnull`,
}

// The stream reader accepts what encoding/json accepts, element by
// element, with reads of any size (one byte, or split at every place).
func TestEachArrayElementAgreesWithEncodingJSON(t *testing.T) {
	for _, body := range streamCases {
		var want []json.RawMessage
		wantErr := json.Unmarshal([]byte(body), &want)
		for _, name := range []string{"whole", "bytes"} {
			var r io.Reader = strings.NewReader(body)
			if name == "bytes" {
				r = iotest.OneByteReader(r)
			}
			var got []string
			err := eachArrayElement(r, func(elem string) error {
				got = append(got, elem)
				return nil
			})
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("%s %q: error %v, encoding/json %v", name, body, err, wantErr)
			}
			if err != nil {
				continue
			}
			if len(got) != len(want) {
				t.Fatalf("%s %q: %d elements, want %d", name, body, len(got), len(want))
			}
			for i := range got {
				if got[i] != string(want[i]) {
					t.Fatalf("%s %q: element %d %q, want %q", name, body, i, got[i], want[i])
				}
			}
		}
	}
}

// An element larger than the read buffer grows it, and the elements of one
// read share one string.
func TestEachArrayElementLargeElement(t *testing.T) {
	big := `"` + strings.Repeat("x", 3*streamBufferSize) + `"`
	body := `[1,` + big + `,{"a":2}]`
	var got []string
	if err := eachArrayElement(strings.NewReader(body), func(e string) error {
		got = append(got, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != "1" || got[1] != big || got[2] != `{"a":2}` {
		t.Fatalf("%d elements", len(got))
	}
}

// An error of the callback stops the reading at once.
func TestEachArrayElementStops(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := eachArrayElement(strings.NewReader(`[1,2,3,4]`), func(string) error {
		n++
		if n == 2 {
			return stop
		}
		return nil
	})
	if err != stop || n != 2 {
		t.Fatalf("err %v after %d", err, n)
	}
}

// A whitelist streamed by the gateway in pieces, past the body limit: the
// client stops at the limit with its message (not "cannot read"), after
// handing over the batches that arrived within it.
func TestWhitelistStreamedPastTheLimit(t *testing.T) {
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		flusher := w.(http.Flusher)
		_, _ = io.WriteString(w, "[")
		for i := range 20_000 { // about 1.6 MB, in flushed pieces
			if i > 0 {
				_, _ = io.WriteString(w, ",")
			}
			fmt.Fprintf(w, `{"id":"%d","name":"entry %d","walletAddress":"0x%040d"}`, i, i, i)
			if i%500 == 0 {
				flusher.Flush()
			}
		}
		_, _ = io.WriteString(w, "]")
	}))
	defer gw.Close()
	c := New(Config{BaseURL: gw.URL, ClientKey: "ck"})
	c.SetSession(Session{AccessToken: "token-token"})
	c.maxBody = 1 << 20 // 1 MiB for the test
	got := 0
	err := c.WhitelistBatches(context.Background(), "usdc", func(batch []WhitelistEntry) error {
		got += len(batch)
		return nil
	})
	var e *Error
	if !errors.As(err, &e) || e.Message != "the answer is larger than 1 MiB, more than this client reads" || e.Status != 200 {
		t.Fatalf("err %v", err)
	}
	if got == 0 || got >= 20_000 {
		t.Fatalf("%d entries handed over before the limit", got)
	}
	// Under a limit it can hold, the same answer loads whole.
	c.maxBody = 4 << 20
	list, err := c.Whitelist(context.Background(), "usdc")
	if err != nil || len(list) != 20_000 || list[19_999].Name != "entry 19999" || list[5].WalletAddress != fmt.Sprintf("0x%040d", 5) {
		t.Fatalf("%d entries, %v", len(list), err)
	}
}

// Records read from the stream keep their raw text and their unknown
// members, and a member of an unexpected type does not fail the list.
func TestWhitelistStreamTolerantRecords(t *testing.T) {
	body := `[{"id":"w1","name":"A\u00e9","walletMemo":"7","lastUsedAt":null,"tier":"gold","createdAt":5},` +
		` {"id":"w2","name":"B","nested":{"x":[1,2]}}]`
	c := memoryClient([]byte(body), "token-token")
	list, err := c.Whitelist(context.Background(), "usdc")
	if err != nil || len(list) != 2 {
		t.Fatalf("%+v %v", list, err)
	}
	a, b := list[0], list[1]
	if a.Name != "Aé" || a.WalletMemo == nil || *a.WalletMemo != "7" || a.LastUsedAt != nil || a.CreatedAt != "" {
		t.Fatalf("first %+v", a)
	}
	if string(a.Extra["tier"]) != `"gold"` || string(a.Extra["createdAt"]) != "5" || string(b.Extra["nested"]) != `{"x":[1,2]}` {
		t.Fatalf("extra %v %v", a.Extra, b.Extra)
	}
	if string(b.Raw) != `{"id":"w2","name":"B","nested":{"x":[1,2]}}` {
		t.Fatalf("raw %q", b.Raw)
	}
}

// Bodies that are empty, cut short or not an array get their own message.
func TestWhitelistStreamBadBodies(t *testing.T) {
	for body, want := range map[string]string{
		"":                   "with an empty body",
		"  ":                 "with an empty body",
		`[{"id":"a"},{"id"`:  "with a body this client cannot read",
		`{"id":"a"}`:         "with a body this client cannot read",
		`[{"id":"a"}] extra`: "with a body this client cannot read",
		`["not an object"]`:  "with a body this client cannot read",
	} {
		c := memoryClient([]byte(body), "token-token")
		_, err := c.Whitelist(context.Background(), "usdc")
		if err == nil || !strings.Contains(ErrorMessage(err), want) {
			t.Fatalf("%q: %v", body, err)
		}
	}
}

// Other answers are decoded from the stream too, with the same limit and
// messages.
func TestJSONAnswerStreamedPastTheLimit(t *testing.T) {
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"id":"u1","firstName":"`+strings.Repeat("a", 3<<20)+`"}`)
	}))
	defer gw.Close()
	c := New(Config{BaseURL: gw.URL, ClientKey: "ck"})
	c.SetSession(Session{AccessToken: "token-token"})
	c.maxBody = 1 << 20
	if _, err := c.User(context.Background()); err == nil || !strings.Contains(ErrorMessage(err), "the answer is larger than 1 MiB") {
		t.Fatalf("err %v", err)
	}
	c.maxBody = 4 << 20
	if u, err := c.User(context.Background()); err != nil || len(u.FirstName) != 3<<20 {
		t.Fatalf("err %v", err)
	}
}

// FuzzEachArrayElement: whatever the body, the stream reader accepts it
// exactly when encoding/json does, with the same elements, read whole or
// a byte at a time.
func FuzzEachArrayElement(f *testing.F) {
	for _, c := range streamCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var want []json.RawMessage
		wantErr := json.Unmarshal([]byte(body), &want)
		for _, r := range []io.Reader{strings.NewReader(body), iotest.OneByteReader(strings.NewReader(body))} {
			var got []string
			err := eachArrayElement(r, func(elem string) error {
				got = append(got, elem)
				return nil
			})
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("%q: error %v, encoding/json %v", body, err, wantErr)
			}
			if err == nil && len(got) != len(want) {
				t.Fatalf("%q: %d elements, want %d", body, len(got), len(want))
			}
		}
	})
}

// Nesting is bounded where encoding/json bounds it.
func TestEachArrayElementNesting(t *testing.T) {
	for _, depth := range []int{9_998, 9_999, 10_000, 10_001} {
		body := "[" + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "]"
		var v any
		wantErr := json.Unmarshal([]byte(body), &v)
		err := eachArrayElement(strings.NewReader(body), func(string) error { return nil })
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("depth %d: error %v, encoding/json %v", depth, err, wantErr)
		}
	}
}
