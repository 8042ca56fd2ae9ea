//go:build !js

package apiserver

import (
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Natively, an answer larger than 128 KiB is gzipped when the client
// accepts gzip, as kube-apiserver's APIResponseCompression (on by default)
// does for every object, list, discovery document and Status it
// serializes (responsewriters.SerializeObject: a deferred writer decides
// on its first write) — never for a watch stream. client-go and kubectl
// ask for gzip and decompress it without a word; what they see is the
// header pair:
//
//	GET /api/v1/configmaps  Accept-Encoding: gzip   (a list of 300 KiB)
//	→ 200, Content-Encoding: gzip, Vary: Accept-Encoding, ~8 KiB on the wire
//	GET /api/v1/configmaps?limit=5                  (8 KiB)
//	→ 200, no Content-Encoding
//
// The browser build answers uncompressed (gzip_js.go): its answers are
// Response objects a service worker builds, which no browser decodes, and
// the encoder would cost the wasm.

// gzipThreshold is kube's defaultGzipThresholdBytes: a first write (or
// buffer of small writes) longer than this is compressed.
const gzipThreshold = 128 * 1024

// gzipPool keeps level-1 writers, kube's gzipContentEncodingLevel.
var gzipPool = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, 1)
	return w
}}

// acceptsGzip is responsewriters.ContentEncodingSupported: one of the
// comma-separated Accept-Encoding tokens is exactly "gzip".
func acceptsGzip(r *http.Request) bool {
	for _, t := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		if strings.TrimSpace(t) == "gzip" {
			return true
		}
	}
	return false
}

// compressible returns the writer an answer to r goes through and the
// function that ends it (call it once the handler returned).
func compressible(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, func()) {
	if !acceptsGzip(r) {
		return w, func() {}
	}
	d := &deferredWriter{hw: w}
	return d, d.close
}

// deferredWriter is kube's deferredResponseWriter for a handler that sets
// headers, calls WriteHeader, then writes: the status line waits for the
// first write long enough to decide (more than 4 bytes, or buffered small
// writes past the threshold, or the end).
type deferredWriter struct {
	hw      http.ResponseWriter
	code    int // 0: WriteHeader not called
	buf     []byte
	started bool      // the status line went out
	w       io.Writer // hw or a gzip writer, once started
	gz      *gzip.Writer
}

func (d *deferredWriter) Header() http.Header { return d.hw.Header() }

func (d *deferredWriter) Unwrap() http.ResponseWriter { return d.hw }

func (d *deferredWriter) WriteHeader(code int) {
	if d.code == 0 && !d.started {
		d.code = code
	}
}

func (d *deferredWriter) Write(p []byte) (int, error) {
	switch {
	case d.started:
		return d.w.Write(p)
	case d.buf == nil && len(p) > 4:
		return d.start(p)
	default:
		d.buf = append(d.buf, p...)
		if len(d.buf) > gzipThreshold {
			b := d.buf
			d.buf = nil
			if _, err := d.start(b); err != nil {
				return 0, err
			}
		}
		return len(p), nil
	}
}

// start sends the status line, compressed when p is over the threshold.
func (d *deferredWriter) start(p []byte) (int, error) {
	d.started = true
	d.w = d.hw
	if len(p) > gzipThreshold {
		h := d.hw.Header()
		h.Set("Content-Encoding", "gzip")
		h.Add("Vary", "Accept-Encoding")
		h.Del("Content-Length")
		d.gz = gzipPool.Get().(*gzip.Writer)
		d.gz.Reset(d.hw)
		d.w = d.gz
	}
	if d.code != 0 {
		d.hw.WriteHeader(d.code)
	}
	return d.w.Write(p)
}

func (d *deferredWriter) close() {
	if !d.started {
		if d.buf != nil {
			b := d.buf
			d.buf = nil
			d.start(b)
		} else if d.code != 0 {
			d.started = true
			d.hw.WriteHeader(d.code)
		}
	}
	if d.gz != nil {
		d.gz.Close()
		d.gz.Reset(nil)
		gzipPool.Put(d.gz)
		d.gz = nil
	}
}
