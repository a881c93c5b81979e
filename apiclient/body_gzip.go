package apiclient

import (
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"strings"
)

// Compressed answers are decompressed here rather than by net/http, so
// that what they grow to is watched from the first bytes: a gzip bomb (a
// few kilobytes that decompress to gigabytes) stops after a megabyte or two
// instead of at the body limit.

const (
	// maxExpansion is how many times its compressed size an answer may
	// grow; JSON rarely compresses better than 20 to 1, a bomb does 1,000.
	maxExpansion = 100
	// expansionGrace is what is decompressed before the ratio is judged:
	// a small answer of repeated text may compress very well.
	expansionGrace = 1 << 20
)

// errCompressionBomb is a compressed answer that grows past maxExpansion.
var errCompressionBomb = errors.New("compressed answer grows past the limit")

// answerStream is the body of resp as JSON text, decompressed when the
// gateway compressed it, and its size when known in advance (-1 if not).
func answerStream(resp *http.Response) (io.Reader, int64) {
	if strings.EqualFold(strings.TrimSpace(resp.Header.Get("Content-Encoding")), "gzip") {
		return &gunzipBody{compressed: &countingReader{r: resp.Body}}, -1
	}
	return resp.Body, resp.ContentLength
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// gunzipBody decompresses a gzip body, failing with errCompressionBomb once
// it has grown past maxExpansion times what was received (after
// expansionGrace). The gzip header is read on the first Read, so its
// errors come back as the body's.
type gunzipBody struct {
	compressed *countingReader
	zr         *gzip.Reader
	out        int64
}

func (g *gunzipBody) Read(p []byte) (int, error) {
	if g.zr == nil {
		zr, err := gzip.NewReader(g.compressed)
		if err != nil {
			if err == io.EOF {
				return 0, io.EOF // an empty body, compressed or not
			}
			return 0, err
		}
		g.zr = zr
	}
	n, err := g.zr.Read(p)
	g.out += int64(n)
	if g.out > expansionGrace && g.out > maxExpansion*g.compressed.n {
		return n, errCompressionBomb
	}
	return n, err
}
