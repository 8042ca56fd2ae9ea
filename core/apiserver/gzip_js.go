//go:build js

package apiserver

import "net/http"

// compressible: the browser build answers uncompressed (gzip_other.go).
func compressible(w http.ResponseWriter, _ *http.Request) (http.ResponseWriter, func()) {
	return w, func() {}
}
