// Package respbuf is the smallest http.ResponseWriter: it keeps the status
// and body of a request served in-process (the controllers' client, the
// server's own Import). net/http/httptest's recorder would do the same but
// links a test server (flag, TLS) into the WebAssembly build.
package respbuf

import (
	"bytes"
	"net/http"
)

// Writer buffers one response. Its zero value is not ready; use New.
type Writer struct {
	header http.Header
	code   int
	Body   bytes.Buffer
}

// New returns an empty Writer.
func New() *Writer { return &Writer{header: http.Header{}} }

func (w *Writer) Header() http.Header { return w.header }

// WriteHeader keeps the first status, as net/http does.
func (w *Writer) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *Writer) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.Body.Write(p)
}

// Code is the response's status: 200 when the handler wrote nothing, as
// net/http answers.
func (w *Writer) Code() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}
