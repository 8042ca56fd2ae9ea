// Package apiserver is the HTTP face of the core: an http.Handler that
// speaks the Kubernetes API over the storage and resource model.
//
// Requests flow one way: server.go routes, the verb files (create.go,
// update.go, delete.go, read.go, watch.go, patch.go) implement REST
// semantics with help from the resource model, and every failure is a
// typed error written once by writeError.
package apiserver

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/openapi"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// Options configure a Server.
type Options struct {
	// HistoryEvents and HistoryAge bound the watch/list history window.
	HistoryEvents int
	HistoryAge    time.Duration
	// MinWatchSeconds and MaxWatchSeconds bound a watch's randomised
	// lifetime. Defaults: 1800–3600 s, as kube-apiserver's
	// --min-request-timeout gives; the browser runtime uses 240–270 s.
	MinWatchSeconds, MaxWatchSeconds int
	// Now is the clock (tests).
	Now func() time.Time
	// Persister restores the saved state at start and makes every write
	// durable before it is acknowledged (nil: memory only).
	Persister store.Durable
	// Controllers, when set, starts in-process controllers against the
	// server once it is built and stops them (ctx ends) on Close — e.g.
	// core/controllers.Starter (garbage collector, Deployment → ReplicaSet
	// → Pods, Nodes, a scheduler and simulated kubelets). Nil for pure API demos, for conformance
	// replay and in the browser, which then does not link that package.
	Controllers func(ctx context.Context, api http.Handler, st *store.Store, now func() time.Time)
	// CEL evaluates the x-kubernetes-validations of CRD schemas and
	// ValidatingAdmissionPolicies (core/cel): natively cel/engine.New(), in
	// the browser the cel.wasm behind a cel.Remote. Nil: rules and
	// policies are stored but not evaluated.
	CEL cel.Engine

	// bootstrapByWrites, when set, creates the bootstrap objects instead
	// of bootstrapTemplate (seed.go): through createObject, the reference
	// the template is made from and checked against (seed_test.go).
	bootstrapByWrites func(*Server)
}

// Server is the Kubernetes API as an http.Handler.
type Server struct {
	opts  Options
	store *store.Store
	reg   *registry
	now   func() time.Time

	stopControllers context.CancelFunc
	openErr         error
	openapi         openapi.Cache
	policies        policyCache // admission's policies and bindings (policycache.go)
	plugins         []*resource.AdmissionPlugin
	reads           readCache // what the plugins read (plugins.go)

	fmMu          sync.Mutex
	fieldManagers map[*resource.Resource]fieldManager
	// keptWarnings are validated objects' warnings for their answer
	// (cel.go: keepWarnings).
	warnMu       sync.Mutex
	keptWarnings map[uintptr]keptWarnings

	// perWatcherEncoding: every watcher decodes and encodes its own copy of
	// each event (watch_event.go) — the baseline of the benchmarks and of
	// the equivalence test, set before the first watch; never in service.
	perWatcherEncoding bool

	// encoded keeps the protobuf messages of stored objects (rawread.go).
	encoded encodeCache
	// decodeReads: every read decodes the stored objects and encodes its
	// answer (no stored-bytes paths, rawread.go, rawlist.go) — the
	// baseline of the equivalence test; never in service.
	decodeReads bool

	// nsRuns: the namespaces whose emptying runs again after a deletion
	// (lifecycle.go, watchNamespaceContent), true while a run goes on,
	// false once another was asked for during it.
	nsMu   sync.Mutex
	nsRuns map[string]bool
}

// New returns a Server with the built-in resources and the default
// namespaces.
func New(opts Options) *Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxWatchSeconds <= 0 {
		opts.MaxWatchSeconds = 3600
	}
	if opts.MinWatchSeconds <= 0 || opts.MinWatchSeconds > opts.MaxWatchSeconds {
		opts.MinWatchSeconds = opts.MaxWatchSeconds / 2
	}
	s := &Server{
		opts:          opts,
		store:         store.New(store.Options{HistoryEvents: opts.HistoryEvents, HistoryAge: opts.HistoryAge, Now: opts.Now}),
		reg:           newRegistry(),
		now:           opts.Now,
		fieldManagers: map[*resource.Resource]fieldManager{},
	}
	for _, res := range builtinResources() {
		s.reg.add(res, "")
	}
	restored := false
	if opts.Persister != nil {
		// on error the store is untouched and memory-only; NewDurable reports it
		restored, s.openErr = s.store.Open(opts.Persister)
	}
	if restored {
		s.restoreControllers()
	} else if opts.bootstrapByWrites != nil {
		opts.bootstrapByWrites(s)
	} else if err := s.seedBootstrap(); err != nil {
		// its storage failed (as each of bootstrap's creates would have)
		handleError(fmt.Errorf("bootstrap: %w", err))
	}
	s.store.OnCommit(s.watchNamespaceContent)
	s.watchPolicies()
	s.watchPluginReads()
	if opts.Controllers != nil {
		ctx, cancel := context.WithCancel(context.Background())
		s.stopControllers = cancel
		opts.Controllers(ctx, s, s.store, opts.Now)
	}
	return s
}

// Close stops the controllers, if any.
func (s *Server) Close() {
	if s.stopControllers != nil {
		s.stopControllers()
	}
}

// CEL is the server's CEL engine (nil: none), for the controllers that
// ask it too (core/controllers: validatingadmissionpolicy-status).
func (s *Server) CEL() cel.Engine { return s.opts.CEL }

// Store exposes the storage (for persistence and tests).
func (s *Server) Store() *store.Store { return s.store }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			writeError(w, apierr.Internal(fmt.Errorf("panic: %v", p)))
		}
	}()
	r, err := s.authenticate(r)
	if err != nil {
		writeError(w, err)
		return
	}
	path := r.URL.Path
	switch {
	case path == "/version" || path == "/version/":
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			writeError(w, apierr.MethodNotAllowed())
			return
		}
		s.serveVersion(w, r)
		return
	case isHealthPath(path):
		s.serveHealth(w, r)
		return
	case path == "/api" || path == "/api/":
		w, done := compressible(w, r)
		defer done()
		if !s.serveAggregatedDiscovery(w, r, true) {
			s.serveAPIVersions(w, r)
		}
		return
	case path == "/apis" || path == "/apis/":
		w, done := compressible(w, r)
		defer done()
		if !s.serveAggregatedDiscovery(w, r, false) {
			s.serveAPIGroupList(w, r)
		}
		return
	case strings.HasPrefix(path, "/openapi/"):
		if s.serveOpenAPI(w, r) {
			return
		}
	}
	ri, ok := parsePath(r.Method, path, r.URL.Query().Get)
	if !ok {
		s.serveNotFoundIndex(w, r)
		return
	}
	if ri.verb != "watch" { // an answer, not a stream: gzipped natively when large
		var done func()
		w, done = compressible(w, r)
		defer done()
	}
	switch {
	case ri.groupOnly:
		s.serveAPIGroup(w, r, ri.group)
	case ri.versionOnly:
		s.serveResourceList(w, r, ri)
	case ri.emptyResourcePath:
		http.NotFound(w, r)
	default:
		s.serveResource(w, r, ri)
	}
}

func (s *Server) serveVersion(w http.ResponseWriter, r *http.Request) {
	writeObject(w, http.StatusOK, output{media: mediaJSON}, map[string]any{
		"major": "1", "minor": "37", "emulationMajor": "1", "emulationMinor": "37",
		"minCompatibilityMajor": "1", "minCompatibilityMinor": "36",
		"gitVersion": "v1.37.2-kubesandbox", "gitCommit": "kubesandbox", "gitTreeState": "clean",
		"buildDate": "2026-11-01T00:00:00Z", "goVersion": runtime.Version(), "compiler": runtime.Compiler, "platform": runtime.GOOS + "/" + runtime.GOARCH,
	})
}

func (s *Server) serveNotFoundIndex(w http.ResponseWriter, r *http.Request) {
	paths := []string{"/api", "/api/v1", "/apis", "/healthz", "/livez", "/readyz", "/version"}
	for _, g := range s.reg.groups() {
		if g == "" {
			continue
		}
		paths = append(paths, "/apis/"+g)
		for _, v := range s.reg.groupVersions(g) {
			paths = append(paths, "/apis/"+g+"/"+v)
		}
	}
	writeObject(w, http.StatusNotFound, output{media: mediaJSON}, map[string]any{"paths": jsonx.Anys(paths)})
}

// serveResource is the entry for /api/v1/... and /apis/G/V/... resource
// paths.
func (s *Server) serveResource(w http.ResponseWriter, r *http.Request, ri reqInfo) {
	res := s.reg.lookup(ri.group, ri.version, ri.resource)
	s.addAPIWarnings(w, ri, res)
	if res == nil {
		http.NotFound(w, r)
		return
	}
	if ri.tooManyParts && !res.CRD {
		// a custom resource's handler reads the first four segments and
		// ignores the rest (.../w1/status/extra is .../w1/status); no
		// built-in route matches
		writeError(w, apierr.NotFoundPath())
		return
	}
	if !res.Namespaced && ri.namespaceInPath && res.Resource != "namespaces" {
		if res.CRD {
			http.NotFound(w, r)
		} else {
			// no built-in route: kube-apiserver's 404 Status
			// (/api/v1/namespaces/default/nodes)
			writeError(w, apierr.NotFoundPath())
		}
		return
	}
	if res.Namespaced && !ri.namespaceInPath && ri.name == "" && ri.verb != "list" && ri.verb != "watch" {
		// the all-namespaces path of a namespaced resource only lists
		// and watches: a built-in's routes answer 405, a custom
		// resource's handler 404
		if res.CRD {
			http.NotFound(w, r)
		} else {
			writeError(w, apierr.MethodNotAllowed())
		}
		return
	}
	if !res.CRD && res.Hooks.Answer == nil && !builtinRoute(ri) {
		writeError(w, apierr.MethodNotAllowed())
		return
	}
	if res.Resource == "namespaces" && ri.name != "" {
		ri.namespace = ""
	}
	if !res.Namespaced {
		ri.namespace = ""
	}
	served := ri.subresource == "" || (ri.subresource == "status" && res.Status) || (ri.subresource == "scale" && res.Scale != nil) ||
		(ri.name != "" && ownSubresource(res, ri.subresource) != nil)
	if !served {
		switch {
		case res.CRD && ri.name != "":
			// the custom resource handler answers for the object
			writeError(w, apierr.NotFound(apierr.GR{Group: res.Group, Resource: res.Resource}, ri.name))
		case !res.CRD:
			writeError(w, apierr.NotFoundPath()) // no built-in route
		default:
			http.NotFound(w, r)
		}
		return
	}
	out, err := negotiate(r, protoSchema(res, ri.subresource))
	if err != nil {
		if acceptsOnlyProtobuf(r) {
			writeErrorProtobuf(w, err)
		} else {
			writeError(w, err)
		}
		return
	}
	req := &request{s: s, w: w, r: r, ri: ri, res: res, out: out, query: r.URL.Query()}
	if err := req.dispatch(); err != nil {
		writeErrorAs(w, out, err)
	}
}

// builtinRoute reports whether a built-in's routes (go-restful's, one per
// path and method) take the request: a collection takes GET, POST and
// DELETE, an object GET, PUT, PATCH and DELETE, other methods none. A
// custom resource's handler has no such table: it answers by verb.
func builtinRoute(ri reqInfo) bool {
	switch {
	case ri.verb == "":
		return false
	case ri.subresource != "":
		return true // each subresource decides (405 with its verb)
	case ri.name == "":
		return ri.verb != "update" && ri.verb != "patch"
	}
	return ri.verb != "create"
}

// isHealthPath matches /healthz, /livez, /readyz and their per-check paths.
func isHealthPath(p string) bool {
	for _, h := range []string{"/healthz", "/livez", "/readyz"} {
		if p == h || strings.HasPrefix(p, h+"/") {
			return true
		}
	}
	return false
}
