package apiclient_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// BenchmarkWhitelistSandboxHTTP100k loads 100,000 whitelist entries from
// the sandbox over HTTP, end to end. "transfer" is the reference: the same
// request with the body read and thrown away (the gateway's own time, its
// encoding included). "client" is WhitelistBatches decoding the entries as
// they arrive; first-ms is when the first batch (the first screenful and
// more) was in hand.
func BenchmarkWhitelistSandboxHTTP100k(b *testing.B) {
	srv := sandbox.New(sandbox.Options{})
	hs := httptest.NewServer(srv)
	b.Cleanup(hs.Close)
	c := apiclient.New(apiclient.Config{BaseURL: hs.URL, ClientKey: sandbox.DemoClientKey,
		SecretKey: sandbox.DemoSecretKey, Timeout: time.Minute})
	if _, err := c.Login(context.Background(), "alice@demo.test", "demo-pass"); err != nil {
		b.Fatal(err)
	}
	total, err := srv.SeedWhitelist("alice@demo.test", "usdc", 100_000)
	if err != nil {
		b.Fatal(err)
	}

	b.Run("transfer", func(b *testing.B) {
		req, _ := http.NewRequest(http.MethodGet, hs.URL+"/v1/wallet/whitelist?currency=usdc", nil)
		req.Header.Set("x-client-key", sandbox.DemoClientKey)
		req.Header.Set("Authorization", "Bearer "+c.Session().AccessToken)
		b.ReportAllocs()
		for b.Loop() {
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			n, err := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if err != nil || resp.StatusCode != http.StatusOK {
				b.Fatalf("%d, %v", resp.StatusCode, err)
			}
			b.SetBytes(n)
		}
	})

	b.Run("client", func(b *testing.B) {
		b.ReportAllocs()
		var first time.Duration
		for b.Loop() {
			start, n := time.Now(), 0
			err := c.WhitelistBatches(context.Background(), "usdc", func(batch []apiclient.WhitelistEntry) error {
				if n == 0 {
					first += time.Since(start)
				}
				n += len(batch)
				return nil
			})
			if err != nil || n != total {
				b.Fatalf("%d entries of %d, %v", n, total, err)
			}
		}
		b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N), "first-ms")
	})
}
