package apiclient

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// peakHeap runs fn while sampling the bytes of heap objects (live and not
// yet collected) every millisecond, and returns the most seen and what was
// in use before fn.
func peakHeap(fn func()) (peak, before uint64) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	before = read()
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		most := before
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				done <- max(most, read())
				return
			case <-tick.C:
				most = max(most, read())
			}
		}
	}()
	fn()
	close(stop)
	return <-done, before
}

// hugeServer answers every request with status and a body of size bytes:
// prefix, then x for as long as it takes, then suffix; written as it is
// sent, so the server itself holds none of it.
func hugeServer(t *testing.T, status int, prefix string, size int, suffix string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(size))
		w.WriteHeader(status)
		_, _ = io.WriteString(w, prefix)
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for left := size - len(prefix) - len(suffix); left > 0; left -= len(chunk) {
			if _, err := w.Write(chunk[:min(left, len(chunk))]); err != nil {
				return // the client stopped reading
			}
		}
		_, _ = io.WriteString(w, suffix)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func clientFor(url string) *Client {
	c := New(Config{BaseURL: url, ClientKey: "ck", Timeout: time.Minute})
	c.SetSession(Session{AccessToken: "token-token"})
	return c
}

// A 500 whose message is 50 MB: only the head is read, the message is cut
// to maxGatewayText characters ending with "…", and the head stays for
// the inspector, marked cut.
func TestErrorWithA50MBMessageIsReadOnlyToItsHead(t *testing.T) {
	const size = 50 << 20
	srv := hugeServer(t, 500, `{"error":"Internal","message":"`, size, `"}`)
	c := clientFor(srv.URL)
	var err error
	start := time.Now()
	peak, before := peakHeap(func() { _, err = c.CardStatus(context.Background()) })
	took := time.Since(start)
	var e *Error
	if !errors.As(err, &e) || e.Status != 500 {
		t.Fatalf("err %v", err)
	}
	if n := utf8.RuneCountInString(e.Message); n != maxGatewayText || !strings.HasSuffix(e.Message, "…") || !strings.HasPrefix(e.Message, "xxx") {
		t.Fatalf("message of %d characters: %.40q…", n, e.Message)
	}
	if e.Code != "Internal" {
		t.Fatalf("code %q", e.Code)
	}
	if len(e.Body) != maxErrorBody || !e.BodyCut || !bytes.HasPrefix(e.Body, []byte(`{"error":"Internal","message":"xxx`)) {
		t.Fatalf("body of %d bytes, cut %v", len(e.Body), e.BodyCut)
	}
	if len(ErrorMessage(err)) > 2*maxGatewayText+16 {
		t.Fatalf("one-liner of %d bytes", len(ErrorMessage(err)))
	}
	grew := float64(peak-before) / (1 << 20)
	t.Logf("50 MB error message: answered in %v, heap peak %.1f MiB (%.1f MiB over the %.1f MiB before)",
		took.Round(time.Millisecond), float64(peak)/(1<<20), grew, float64(before)/(1<<20))
	if grew > 4 {
		t.Fatalf("the heap grew by %.1f MiB reading a 50 MB error", grew)
	}
}

// A cut message that ends inside an escape or a multi-byte character
// keeps what came before it; a member that arrived whole is read whole; a
// cut value other than a string is left out.
func TestErrorHeadKeepsWholeMembersAndCutStrings(t *testing.T) {
	for head, want := range map[string]errorBody{
		`{"message":"abc\u00`:     {Message: []byte(`"abc…"`)},
		`{"message":"abc\`:        {Message: []byte(`"abc…"`)},
		`{"message":"ab` + "\xc3": {Message: []byte(`"ab…"`)},
		`{"error":"E1","details":["a","b"],"message" : "déjà`: {Error: []byte(`"E1"`), Details: []byte(`["a","b"]`),
			Message: []byte(`"déjà…"`)},
		`{"error":"E2","message":{"nested":"cut`: {Error: []byte(`"E2"`)},
		`{"error":"E3","errors":[{"field":"a`:    {Error: []byte(`"E3"`)},
	} {
		if got := errorHead([]byte(head)); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%q: %s, want %s", head, got, want)
		}
	}
	// Through decodeError: the message of a cut head ends with "…".
	body := append([]byte(`{"error":"Bad","message":"`), bytes.Repeat([]byte("é"), maxErrorBody)...)
	e := decodeError("Op", &http.Response{StatusCode: 500, Header: http.Header{}}, body, time.Now())
	if !e.BodyCut || e.Code != "Bad" || !strings.HasPrefix(e.Message, "éé") || !strings.HasSuffix(e.Message, "é…") {
		t.Fatalf("%+v", e)
	}
}

// Many field errors and details are cut to maxGatewayItems, with a last
// detail saying how many more there were.
func TestErrorListsAreBounded(t *testing.T) {
	var fields []string
	for i := range 100 {
		fields = append(fields, fmt.Sprintf(`{"field":"f%d","message":"%s"}`, i, strings.Repeat("m", 400)))
	}
	srv := errorServer(t, 422, nil, `{"message":"bad","errors":[`+strings.Join(fields, ",")+`]}`)
	_, err := clientFor(srv.URL).CardStatus(context.Background())
	var e *Error
	if !errors.As(err, &e) || len(e.Fields) != maxGatewayItems || len(e.Details) != 1 || e.Details[0] != "80 more not shown" {
		t.Fatalf("%d fields, details %q", len(e.Fields), e.Details)
	}
	if n := utf8.RuneCountInString(e.Fields[0].Message); n != maxGatewayText {
		t.Fatalf("field message of %d characters", n)
	}
}

// A successful answer of 100 MB stops at the answer limit with a message
// that says so, without holding the 100 MB.
func TestAnswerOf100MBStopsAtTheLimit(t *testing.T) {
	srv := hugeServer(t, 200, `{"id":"u1","firstName":"`, 100<<20, `"}`)
	c := clientFor(srv.URL)
	var err error
	peak, before := peakHeap(func() { _, err = c.User(context.Background()) })
	if err == nil || ErrorMessage(err) != "the answer is larger than 16 MiB, more than this client reads (200)" {
		t.Fatalf("err %v", err)
	}
	grew := float64(peak-before) / (1 << 20)
	t.Logf("100 MB answer: heap peak %.1f MiB (%.1f MiB over the %.1f MiB before)", float64(peak)/(1<<20), grew, float64(before)/(1<<20))
	if grew > 2*16+4 {
		t.Fatalf("the heap grew by %.1f MiB reading a 100 MB answer", grew)
	}
}

// An answer that announces its size is read into one buffer of that size;
// one that does not, into pieces joined once.
func TestReadAnswerSizes(t *testing.T) {
	body := strings.Repeat("a", 300<<10)
	for _, size := range []int64{-1, int64(len(body)), 10, int64(len(body)) + 5} {
		got, err := readAnswer(strings.NewReader(body), size)
		if err != nil || string(got) != body {
			t.Fatalf("size %d: %d bytes, %v", size, len(got), err)
		}
	}
	if got, err := readAnswer(strings.NewReader(""), -1); err != nil || len(got) != 0 {
		t.Fatalf("empty: %q %v", got, err)
	}
}

// gzipOf compresses n bytes of b.
func gzipOf(t *testing.T, b byte, n int) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	chunk := bytes.Repeat([]byte{b}, 1<<20)
	for left := n; left > 0; left -= len(chunk) {
		if _, err := zw.Write(chunk[:min(left, len(chunk))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// gzipServer answers with body, gzip-compressed as the gateway sent it.
func gzipServer(t *testing.T, status int, body []byte) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A gzip bomb (128 MiB of spaces in 128 KiB) stops after the first
// megabytes it decompresses to, whatever its answer's limit, with a clear
// message; a list read as it arrives (the whitelist, limited to 256 MiB)
// too.
func TestGzipBombStopsEarly(t *testing.T) {
	bomb := gzipOf(t, ' ', 128<<20)
	srv := gzipServer(t, 200, bomb)
	c := clientFor(srv.URL)
	var err error
	peak, before := peakHeap(func() { _, err = c.Whitelist(context.Background(), "usdc") })
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, errCompressionBomb) ||
		e.Message != "the answer grows more than 100 times when decompressed; this client stopped reading it" {
		t.Fatalf("err %v", err)
	}
	grew := float64(peak-before) / (1 << 20)
	t.Logf("gzip bomb of %d KiB (128 MiB decompressed): heap peak %.1f MiB (%.1f MiB over the %.1f MiB before)",
		len(bomb)>>10, float64(peak)/(1<<20), grew, float64(before)/(1<<20))
	if grew > 8 {
		t.Fatalf("the heap grew by %.1f MiB on a gzip bomb", grew)
	}
	// An error answer that is a bomb is read to its small limit only.
	srv = gzipServer(t, 500, gzipOf(t, 'x', 128<<20))
	_, err = clientFor(srv.URL).CardStatus(context.Background())
	if !errors.As(err, &e) || e.Status != 500 || !e.BodyCut || len(e.Body) != maxErrorBody {
		t.Fatalf("err %v", err)
	}
}

// A compressed answer of ordinary JSON is read as if it were not.
func TestGzipAnswerIsDecompressed(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = io.WriteString(zw, `{"id":"u1","firstName":"Ann"}`)
	_ = zw.Close()
	srv := gzipServer(t, 200, buf.Bytes())
	u, err := clientFor(srv.URL).User(context.Background())
	if err != nil || u.FirstName != "Ann" {
		t.Fatalf("%+v %v", u, err)
	}
	srv = gzipServer(t, 200, []byte("not gzip"))
	if _, err := clientFor(srv.URL).User(context.Background()); err == nil {
		t.Fatal("a broken gzip body was accepted")
	}
}

// One element of a list read as it arrives may not grow the read buffer
// past maxStreamElement.
func TestStreamedElementPastItsLimit(t *testing.T) {
	srv := hugeServer(t, 200, `[{"id":"a"},{"id":"`, 64<<20, `"}]`)
	var err error
	peak, before := peakHeap(func() { _, err = clientFor(srv.URL).Whitelist(context.Background(), "usdc") })
	if err == nil || ErrorMessage(err) != "an element of the answer is larger than 4 MiB, more than this client reads (200)" {
		t.Fatalf("err %v", err)
	}
	if grew := float64(peak-before) / (1 << 20); grew > 16 {
		t.Fatalf("the heap grew by %.1f MiB", grew)
	}
}

// FuzzErrorHead: whatever the head of a cut error answer, errorHead keeps
// only valid JSON, and reads a whole object as encoding/json does.
func FuzzErrorHead(f *testing.F) {
	for _, seed := range []string{`{"message":"abc`, `{"error":"E","details":["a"],"message":"d\u00`, `{"message":{"x":"`,
		`{"message":"whole"}`, `{"errors":[{"field":"a","message":"b"}],"message":"m"}`, `{"message":"é` + "\xc3", `[`, ``} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		eb := errorHead(head)
		for _, member := range []json.RawMessage{eb.Message, eb.Errors, eb.Error, eb.ErrorDescription, eb.Details} {
			if member != nil && !json.Valid(member) {
				t.Fatalf("%q: member %q is not JSON", head, member)
			}
		}
		var whole errorBody
		if json.Valid(head) && bytes.HasPrefix(bytes.TrimSpace(head), []byte("{")) && json.Unmarshal(head, &whole) == nil {
			if !bytes.Equal(compact(whole.Message), compact(eb.Message)) || !bytes.Equal(compact(whole.Error), compact(eb.Error)) {
				t.Fatalf("%q: message %s / %s, error %s / %s", head, whole.Message, eb.Message, whole.Error, eb.Error)
			}
		}
	})
}

// compact is raw without white space between tokens (nil stays nil).
func compact(raw json.RawMessage) []byte {
	if raw == nil {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
