package apiserver

import (
	"bytes"
	"net/http"
	"strings"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/kubesandbox/kubesandbox/core/openapi"
)

// OpenAPI documents and aggregated discovery, generated from the served
// resources (core/openapi) and memoised until the registry changes.

func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.Path
	if p != "/openapi/v2" && p != "/openapi/v3" && p != "/openapi/v3/" && !strings.HasPrefix(p, "/openapi/v3/") {
		return false
	}
	docs := s.openapi.For(s.reg.all())
	serve := func(doc []byte) {
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Etag", `"`+openapi.Hash(doc)+`"`)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(doc))
	}
	switch {
	case p == "/openapi/v3" || p == "/openapi/v3/":
		serve(docs.V3Root())
	case p == "/openapi/v2":
		w.Header().Set("Vary", "Accept")
		accept := r.Header.Get("Accept")
		if !openapi.AcceptsJSON(accept) {
			if !openapi.AcceptsV2Protobuf(accept) {
				w.WriteHeader(http.StatusNotAcceptable)
				return true
			}
			w.Header().Set("Content-Type", openapi.V2ProtobufType)
			w.Header().Set("Etag", `"`+openapi.Hash(openapi.V2Protobuf)+`"`)
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(openapi.V2Protobuf))
			return true
		}
		serve(docs.V2())
	default:
		gv := strings.TrimPrefix(p, "/openapi/v3/")
		doc, ok := docs.V3GroupVersion(gv)
		if !ok {
			// an unserved group version is a 404 with an empty body
			// whatever the Accept header: kubectl's validation takes it
			// for "no schema" and reports the unknown kind, a 406 would
			// make it fail ("unable to respond with a content type")
			w.WriteHeader(http.StatusNotFound)
			return true
		}
		w.Header().Set("Vary", "Accept")
		if !openapi.AcceptsJSON(r.Header.Get("Accept")) {
			w.WriteHeader(http.StatusNotAcceptable)
			return true
		}
		hash := openapi.Hash(doc)
		if want := r.URL.Query().Get("hash"); want != "" {
			if want != hash {
				http.Redirect(w, r, p+"?hash="+hash, http.StatusMovedPermanently)
				return true
			}
			w.Header().Set("Cache-Control", "public, immutable")
			w.Header().Set("Expires", time.Now().AddDate(1, 0, 0).UTC().Format(http.TimeFormat))
		}
		serve(doc)
	}
	return true
}

// serveAggregatedDiscovery answers /api and /apis in the
// apidiscovery.k8s.io/v2 form when the Accept header asks for it.
func (s *Server) serveAggregatedDiscovery(w http.ResponseWriter, r *http.Request, legacy bool) bool {
	media, ok := openapi.AggregatedDiscoveryMedia(r.Header.Get("Accept"))
	if !ok {
		return false
	}
	doc := s.openapi.For(s.reg.all()).AggregatedDiscovery(legacy)
	etag := `"` + openapi.Hash(doc) + `"`
	h := w.Header()
	h.Set("Vary", "Accept")
	h.Set("Cache-Control", "public")
	h.Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	if media == "application/yaml" {
		if y, err := yaml.JSONToYAML(doc); err == nil {
			doc = y
		}
	}
	h.Set("Content-Type", media+";g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
	w.WriteHeader(http.StatusOK)
	w.Write(doc)
	return true
}
