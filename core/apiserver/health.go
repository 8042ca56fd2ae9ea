package apiserver

import (
	"fmt"
	"net/http"
	"strings"
)

// healthChecks are the checks /healthz, /livez and /readyz report. The
// sandbox has no etcd or informers to wait for, so they pass once the
// server is built.
var healthChecks = map[string][]string{
	"/healthz": {"ping", "log", "etcd", "poststarthook/start-apiextensions-informers", "poststarthook/start-apiextensions-controllers", "poststarthook/crd-informer-synced"},
	"/livez":   {"ping", "log", "etcd", "poststarthook/start-apiextensions-informers", "poststarthook/start-apiextensions-controllers", "poststarthook/crd-informer-synced"},
	"/readyz":  {"ping", "log", "etcd", "etcd-readiness", "informer-sync", "poststarthook/start-apiextensions-informers", "poststarthook/start-apiextensions-controllers", "poststarthook/crd-informer-synced", "shutdown"},
}

func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	base := path
	check := ""
	for b := range healthChecks {
		if strings.HasPrefix(path, b+"/") {
			base, check = b, strings.TrimPrefix(path, b+"/")
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	checks := healthChecks[base]
	if base != path && check == "" {
		http.NotFound(w, r) // "/livez/": no check has an empty name
		return
	}
	if check != "" {
		if !hasString(checks, check) {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, "ok")
		return
	}
	exclude := r.URL.Query()["exclude"]
	if _, ok := r.URL.Query()["verbose"]; !ok {
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, "ok")
		return
	}
	var b strings.Builder
	for _, c := range checks {
		if hasString(exclude, c) {
			fmt.Fprintf(&b, "[+]%s excluded: ok\n", c)
			continue
		}
		fmt.Fprintf(&b, "[+]%s ok\n", c)
	}
	for _, e := range exclude {
		if !hasString(checks, e) {
			fmt.Fprintf(&b, "warn: some health checks cannot be excluded: no matches for %q\n", e)
		}
	}
	fmt.Fprintf(&b, "%s check passed\n", strings.TrimPrefix(base, "/"))
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, b.String())
}
