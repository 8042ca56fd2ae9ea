// Package apiserver is the HTTP face of the core: an http.Handler that
// speaks the Kubernetes API over the storage and resource model.
package apiserver

import (
	"net/http"
)

// Options configure a Server.
type Options struct{}

// Server is the Kubernetes API as an http.Handler.
type Server struct {
	mux *http.ServeMux
}

// New returns a Server with the built-in resources and the default
// namespaces.
func New(opts Options) *Server {
	s := &Server{mux: http.NewServeMux()}
	s.mux.HandleFunc("/version", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"major":"1","minor":"37","gitVersion":"v1.37.2-kubesandbox"}`))
	})
	return s
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }
