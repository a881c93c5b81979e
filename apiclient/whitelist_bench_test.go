package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
)

// largeWhitelistEntries is the size of the whitelist the loading targets
// are set for (about 31 MB of JSON).
const largeWhitelistEntries = 100_000

// whitelistJSON builds the body of a whitelist answer with n entries in the
// interface's shape, about 310 bytes each.
func whitelistJSON(n int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		lastUsed := "null"
		if i%3 == 0 {
			lastUsed = `"2030-05-01T10:00:00Z"`
		}
		fmt.Fprintf(&b, `{"id":"%08x-0000-4000-8000-%012x","name":"Beneficiary wallet number %d",`+
			`"beneficiaryFirstName":"Firstname%d","beneficiaryLastName":"Lastname%d",`+
			`"walletAddress":"0x%040x","walletMemo":null,"currency":"usdc","lastUsedAt":%s,`+
			`"createdAt":"2030-01-01T00:00:00Z"}`, i, i, i, i, i, i, lastUsed)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// memoryTransport answers every request with the same 200 body from memory,
// so a benchmark measures the client's reading and decoding, not a network.
type memoryTransport struct{ body []byte }

func (m memoryTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Request: r,
		Header: http.Header{"Content-Type": {"application/json"}},
		Body:   io.NopCloser(bytes.NewReader(m.body)), ContentLength: int64(len(m.body))}, nil
}

// memoryClient is a signed-in client whose every request is answered with
// body from memory.
func memoryClient(body []byte, token string) *Client {
	c := New(Config{BaseURL: "http://gateway.test", ClientKey: "ck",
		HTTPClient: &http.Client{Transport: memoryTransport{body}}})
	c.SetSession(Session{AccessToken: token})
	return c
}

// BenchmarkWhitelistClient100k is Client.Whitelist reading 100,000 entries:
// body reading and decoding, without a network.
func BenchmarkWhitelistClient100k(b *testing.B) {
	benchClientReading(b, func(c *Client) (int, error) {
		list, err := c.Whitelist(context.Background(), "usdc")
		return len(list), err
	})
}

// benchClientReading measures read, a client call that reads the
// 100,000-entry whitelist from memory and says how many entries it got.
func benchClientReading(b *testing.B, read func(c *Client) (int, error)) {
	b.Helper()
	body := whitelistJSON(largeWhitelistEntries)
	c := memoryClient(body, "token")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if n, err := read(c); err != nil || n != largeWhitelistEntries {
			b.Fatalf("%d entries, %v", n, err)
		}
	}
}

// plainWhitelistEntry is WhitelistEntry without its methods (a defined
// type keeps the fields, not the methods): what a plain encoding/json
// struct decode costs is the reference of the targets.
type plainWhitelistEntry WhitelistEntry

// BenchmarkWhitelistPlainStruct100k is the reference: encoding/json
// decoding the same body from a stream into plain structs.
func BenchmarkWhitelistPlainStruct100k(b *testing.B) {
	body := whitelistJSON(largeWhitelistEntries)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var list []plainWhitelistEntry
		if err := json.NewDecoder(bytes.NewReader(body)).Decode(&list); err != nil || len(list) != largeWhitelistEntries {
			b.Fatalf("%d entries, %v", len(list), err)
		}
	}
}

// BenchmarkWhitelistBatches100k is what the whitelist screen runs:
// WhitelistBatches handing over 100,000 entries in batches as they are
// decoded from the stream.
func BenchmarkWhitelistBatches100k(b *testing.B) {
	benchClientReading(b, func(c *Client) (int, error) {
		n := 0
		err := c.WhitelistBatches(context.Background(), "usdc", func(batch []WhitelistEntry) error {
			n += len(batch)
			return nil
		})
		return n, err
	})
}

// BenchmarkWhitelistReadAllThenDecode100k is the previous way, kept as the
// reference the streaming reader is measured against: the whole body read
// with io.ReadAll, then encoding/json checking it and calling each entry's
// UnmarshalJSON.
func BenchmarkWhitelistReadAllThenDecode100k(b *testing.B) {
	body := whitelistJSON(largeWhitelistEntries)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		data, err := io.ReadAll(bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		var list []WhitelistEntry
		if err := json.Unmarshal(data, &list); err != nil || len(list) != largeWhitelistEntries {
			b.Fatalf("%d entries, %v", len(list), err)
		}
	}
}
