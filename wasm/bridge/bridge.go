// Package bridge runs an http.Handler for one request handed over by a
// JavaScript host and reports the response to a Sink. It is plain Go (no
// syscall/js) so that it is tested natively; wasm/main.go adapts it to JS.
//
// A response reaches the Sink in one of three shapes:
//
//	buffered:  Head(status, header, body, false)          (the whole body at once)
//	streamed:  Head(status, header, nil, true), Chunk…, End(err)
//	failed:    End(err)                                    (no Head: a network error)
//
// A handler streams by calling Flush (http.Flusher, or
// http.NewResponseController(w).Flush). Everything written before the first
// Flush, and between two Flushes, leaves as one Chunk, so a watch that
// flushes after every event sends exactly one Chunk per event:
//
//	w.Write([]byte(`{"type":"ADDED",...}` + "\n")); w.Flush()  // → Chunk(`{"type":"ADDED",...}\n`)
//
// Handlers that never flush are buffered: one Head with the whole body, the
// path that costs one copy into JS and no per-request JS callbacks.
package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"os"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"
)

// Request is a request as the JavaScript host describes it.
type Request struct {
	Method string
	URL    string      // absolute, e.g. "http://127.0.0.1:8080/api/v1/namespaces?limit=1"
	Header [][2]string // name/value pairs in order; a name may repeat
	Body   []byte      // nil or empty: no body
}

// Sink receives one response. Its methods are called from the goroutine
// serving the request, never concurrently for one request.
type Sink interface {
	// Head starts the response. body is the whole body when streaming is
	// false, and nil when it is true.
	Head(status int, header http.Header, body []byte, streaming bool)
	// Chunk carries part of a streamed body; p is not retained by the caller.
	Chunk(p []byte)
	// End finishes a streamed response (err nil: clean end) or, when no
	// Head was sent, fails the request as a network error.
	End(err error)
}

// ErrAborted is what a streamed response ends with when the handler
// panicked with http.ErrAbortHandler after its head was sent.
var ErrAborted = errors.New("handler aborted the response")

// Now is the clock for the Date header; tests replace it.
var Now = time.Now

// Log receives the stack of a recovered handler panic (in the browser,
// stderr is the worker's console).
var Log io.Writer = os.Stderr

// NewHTTPRequest turns r into the *http.Request a handler sees, carrying ctx.
func NewHTTPRequest(ctx context.Context, r Request) (*http.Request, error) {
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequestWithContext(ctx, method, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return nil, err
	}
	if req.URL.Host == "" {
		return nil, fmt.Errorf("bridge: URL %q is not absolute", r.URL)
	}
	for _, kv := range r.Header {
		if kv[0] == "" {
			continue
		}
		k := canonicalKey(kv[0])
		req.Header[k] = append(req.Header[k], kv[1])
	}
	if len(r.Body) == 0 {
		req.Body, req.ContentLength, req.GetBody = http.NoBody, 0, nil
	}
	req.RequestURI = req.URL.RequestURI()
	req.RemoteAddr = "127.0.0.1:0"
	return req, nil
}

// Serve runs h for r and reports the response to sink. It returns when the
// handler returns. Cancelling ctx cancels the handler's request context and
// makes later writes fail, so a cancelled watch ends promptly. A panic in h
// is recovered here (in WebAssembly it would kill every later request too)
// and answered as net/http does: the client sees a broken connection.
func Serve(ctx context.Context, h http.Handler, r Request, sink Sink) {
	ctx, cancel := context.WithCancel(ctx)
	ServeCancel(ctx, cancel, h, r, sink)
}

// ServeCancel is Serve for a caller that made ctx with context.WithCancel
// itself (to cancel the request from outside): it calls cancel when the
// handler returns, and derives no second context from ctx (which would
// cost every request the parent's map of children).
func ServeCancel(ctx context.Context, cancel context.CancelFunc, h http.Handler, r Request, sink Sink) {
	defer cancel()
	req, err := NewHTTPRequest(ctx, r)
	if err != nil {
		sink.End(err)
		return
	}
	w := &responseWriter{ctx: ctx, sink: sink, header: http.Header{}, head: req.Method == http.MethodHead}
	defer func() {
		if p := recover(); p != nil {
			if p != http.ErrAbortHandler {
				fmt.Fprintf(Log, "kubesandbox: panic serving %s %s: %v\n%s", req.Method, req.URL.Path, p, debug.Stack())
			}
			if w.streaming {
				sink.End(ErrAborted)
			} else {
				sink.End(fmt.Errorf("bridge: handler panicked: %v", p))
			}
		}
	}()
	h.ServeHTTP(w, req)
	w.finish()
}

// responseWriter buffers the body until Flush or the handler's return.
type responseWriter struct {
	ctx       context.Context
	sink      Sink
	header    http.Header // what the handler edits
	sent      http.Header // snapshot taken at WriteHeader, as net/http does
	status    int
	buf       bytes.Buffer
	streaming bool
	head      bool // HEAD request: no body
}

var _ http.Flusher = (*responseWriter)(nil)

func (w *responseWriter) Header() http.Header { return w.header }

func (w *responseWriter) WriteHeader(code int) {
	if w.sent != nil {
		return // superfluous, as net/http (which also logs it)
	}
	if code < 100 || code > 999 {
		code = http.StatusInternalServerError
	}
	if code < 200 && code != http.StatusSwitchingProtocols {
		return // informational: net/http sends it ahead; we have nowhere to
	}
	w.status = code
	w.sent = w.header.Clone()
}

func (w *responseWriter) Write(p []byte) (int, error) {
	if w.sent == nil {
		w.WriteHeader(http.StatusOK)
	}
	if err := w.ctx.Err(); err != nil {
		return 0, err
	}
	if !bodyAllowed(w.status) {
		return 0, http.ErrBodyNotAllowed
	}
	if w.head {
		return len(p), nil
	}
	return w.buf.Write(p)
}

// Flush sends the head (the first time) and what was written since the
// last Flush as one chunk.
func (w *responseWriter) Flush() {
	if w.sent == nil {
		w.WriteHeader(http.StatusOK)
	}
	if w.ctx.Err() != nil {
		return
	}
	if !w.streaming {
		w.streaming = true
		w.sent.Del("Content-Length")
		w.sent.Del("Transfer-Encoding")
		w.sniff()
		w.sink.Head(w.status, w.sent, nil, true)
	}
	if w.buf.Len() > 0 {
		w.sink.Chunk(w.buf.Bytes())
		w.buf.Reset()
	}
}

func (w *responseWriter) finish() {
	if w.streaming {
		if w.buf.Len() > 0 && w.ctx.Err() == nil {
			w.sink.Chunk(w.buf.Bytes())
		}
		w.sink.End(nil)
		return
	}
	if w.sent == nil {
		w.WriteHeader(http.StatusOK)
	}
	w.sent.Del("Transfer-Encoding")
	var body []byte
	if bodyAllowed(w.status) {
		body = w.buf.Bytes()
		w.sniff()
		if w.sent.Get("Content-Length") == "" && !w.head {
			w.sent.Set("Content-Length", strconv.Itoa(len(body)))
		}
	}
	if w.head {
		body = nil
	}
	w.sink.Head(w.status, w.sent, body, false)
}

// sniff completes the head as net/http would: a Content-Type guessed from
// the first bytes when the handler set none, and a Date.
func (w *responseWriter) sniff() {
	if _, ok := w.sent["Content-Type"]; !ok && w.buf.Len() > 0 && bodyAllowed(w.status) {
		w.sent.Set("Content-Type", http.DetectContentType(w.buf.Bytes()))
	}
	if _, ok := w.sent["Date"]; !ok {
		w.sent["Date"] = []string{date(Now())}
	}
}

// lastDate is the Date header of the last second a response was sent in:
// formatting it again is a tenth of a small request's time in the browser.
var lastDate atomic.Pointer[struct {
	sec int64
	s   string
}]

// date formats t as http.TimeFormat, once a second.
func date(t time.Time) string {
	sec := t.Unix()
	if d := lastDate.Load(); d != nil && d.sec == sec {
		return d.s
	}
	s := t.UTC().Format(http.TimeFormat)
	lastDate.Store(&struct {
		sec int64
		s   string
	}{sec, s})
	return s
}

// canonicalKey is textproto.CanonicalMIMEHeaderKey without its map
// lookup (which interns common names) for the names browsers send in
// lower case: "content-type" → "Content-Type". A name that is not a
// plain token of letters, digits and '-' goes to textproto.
func canonicalKey(s string) string {
	upper := true
	canonical := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '-':
			upper = true
			continue
		case 'a' <= c && c <= 'z':
			if upper {
				canonical = false
			}
		case 'A' <= c && c <= 'Z':
			if !upper {
				canonical = false
			}
		case '0' <= c && c <= '9':
		default:
			return textproto.CanonicalMIMEHeaderKey(s)
		}
		upper = false
	}
	if canonical {
		return s
	}
	b := []byte(s)
	upper = true
	for i, c := range b {
		if upper && 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		} else if !upper && 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
		upper = c == '-'
	}
	return string(b)
}

func bodyAllowed(status int) bool {
	return !(status >= 100 && status <= 199) && status != http.StatusNoContent && status != http.StatusNotModified
}
