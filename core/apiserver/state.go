package apiserver

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kubesandbox/kubesandbox/core/internal/respbuf"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// This file is the server's state as a whole: a durable start (restore
// from a store.Durable), and export / import as a YAML List that
// `kubectl apply -f` accepts.

// NewDurable returns a Server whose state is restored from d (or, when d
// holds nothing, freshly bootstrapped) and whose every write is durable
// through d before it is acknowledged.
func NewDurable(opts Options, d store.Durable) (*Server, error) {
	opts.Persister = d
	s := New(opts)
	if s.openErr != nil {
		s.Close()
		return nil, s.openErr
	}
	return s, nil
}

// Export returns every user object as a YAML List (apiVersion v1, kind
// List) that `kubectl apply -f` accepts against a real cluster:
// CustomResourceDefinitions first, then Namespaces, then the rest in
// storage order. The default namespaces, objects being deleted and what
// the cluster makes by itself (madeByCluster) are left out; server-set fields (uid, resourceVersion, creationTimestamp,
// generation, managedFields, ownerReferences to uids that will not exist
// there) and status served by a status subresource are stripped.
func (s *Server) Export() ([]byte, error) {
	kvs, _ := s.store.Snapshot()
	var crds, namespaces, rest []any
	for _, kv := range kvs {
		res, ok := s.resourceForKey(kv.Key)
		if !ok {
			continue // a resource no longer served (its CRD is gone)
		}
		obj, err := jsonx.DecodeObject(kv.Value)
		if err != nil {
			return nil, fmt.Errorf("export: %s: %w", kv.Key, err)
		}
		if av, _ := obj["apiVersion"].(string); !s.serves(res, av) {
			obj["apiVersion"] = res.GroupVersion()
		}
		obj["kind"] = res.Kind
		m := meta(obj)
		if str(m, "deletionTimestamp") != "" {
			continue
		}
		rank := importRank(obj)
		if isBootstrapKey(kv.Key) || madeByCluster(m) {
			continue
		}
		for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink", "ownerReferences", "deletionGracePeriodSeconds"} {
			delete(m, k)
		}
		if res.Status {
			delete(obj, "status")
		}
		switch rank {
		case rankCRD:
			crds = append(crds, obj)
		case rankNamespace:
			namespaces = append(namespaces, obj)
		default:
			rest = append(rest, obj)
		}
	}
	items := append(append(crds, namespaces...), rest...)
	if items == nil {
		items = []any{}
	}
	j, err := jsonx.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		return nil, err
	}
	return yaml.JSONToYAML(j)
}

// clusterManagers are the field managers of the in-process cluster
// components (core/controllers' User-Agents: kube-controller-manager,
// kubelet, kube-scheduler).
var clusterManagers = map[string]bool{"kube-controller-manager": true, "kubelet": true, "kube-scheduler": true}

// madeByCluster reports an object the cluster makes again by itself, left
// out of an export so that an import next to running controllers neither
// duplicates nor orphans it:
//
//   - one with a controller ownerReference (a ReplicaSet's Pods, a
//     Deployment's ReplicaSets, a CronJob's Jobs, a Service's
//     EndpointSlices): its owner is exported and its controller makes it;
//   - one that only cluster components ever wrote outside its status (the
//     Nodes, each namespace's default ServiceAccount and kube-root-ca.crt,
//     Endpoints, the components' Events).
//
// A ConfigMap a user created and a controller later updated is kept: its
// managedFields name the user too.
func madeByCluster(m map[string]any) bool {
	refs, _ := m["ownerReferences"].([]any)
	for _, r := range refs {
		if ref, _ := r.(map[string]any); ref != nil && ref["controller"] == true {
			return true
		}
	}
	managers := 0
	entries, _ := m["managedFields"].([]any)
	for _, e := range entries {
		entry, _ := e.(map[string]any)
		if entry == nil || str(entry, "subresource") != "" {
			continue
		}
		if !clusterManagers[str(entry, "manager")] {
			return false
		}
		managers++
	}
	return managers > 0
}

// resourceForKey finds the served resource a storage key belongs to:
// "/core/configmaps/default/a" → configmaps in the preferred version.
func (s *Server) resourceForKey(key string) (*resource.Resource, bool) {
	parts := strings.SplitN(strings.TrimPrefix(key, "/"), "/", 3)
	if len(parts) < 3 {
		return nil, false
	}
	group := parts[0]
	if group == "core" {
		group = ""
	}
	all := s.reg.forGroupResource(group, parts[1])
	if len(all) == 0 {
		return nil, false
	}
	best := all[0]
	for _, r := range all[1:] {
		if r.StorageVersion != "" && r.Version == r.StorageVersion {
			best = r
			break
		}
		if versionLess(best.Version, r.Version) {
			best = r
		}
	}
	return best, true
}

// serves reports whether apiVersion is a served version of res's group
// and resource.
func (s *Server) serves(res *resource.Resource, apiVersion string) bool {
	for _, r := range s.reg.forGroupResource(res.Group, res.Resource) {
		if r.GroupVersion() == apiVersion {
			return true
		}
	}
	return false
}

// ImportFieldManager owns the fields Import writes.
const ImportFieldManager = "kubesandbox-import"

// Import creates or updates (server-side apply, forced, field manager
// kubesandbox-import) every object of a YAML or JSON document stream —
// single objects or Lists — CRDs first, then Namespaces, then the rest in
// order. An object that fails does not stop the others; the error lists
// every failure.
func (s *Server) Import(doc []byte) error {
	objs, err := splitObjects(doc)
	if err != nil {
		return err
	}
	sort.SliceStable(objs, func(i, j int) bool { return importRank(objs[i]) < importRank(objs[j]) })
	var failures []string
	for _, obj := range objs {
		if err := s.importOne(obj); err != nil {
			failures = append(failures, fmt.Sprintf("%s %s: %v", str(obj, "kind"), displayName(obj), err))
		}
	}
	if len(failures) > 0 {
		return fmt.Errorf("import: %d of %d objects failed:\n%s", len(failures), len(objs), strings.Join(failures, "\n"))
	}
	return nil
}

func displayName(obj object) string {
	name := metaStr(obj, "name")
	if name == "" {
		name = metaStr(obj, "generateName") + "*"
	}
	if ns := metaStr(obj, "namespace"); ns != "" {
		return ns + "/" + name
	}
	return name
}

// The order of an exported or imported document (as Helm's InstallOrder):
// the definitions of types first, then the namespaces, then the rest.
const (
	rankCRD = iota
	rankNamespace
	rankOther
)

// importRank places an object by its apiVersion and kind.
func importRank(obj object) int {
	av, kind := str(obj, "apiVersion"), str(obj, "kind")
	switch {
	case kind == "CustomResourceDefinition" && strings.HasPrefix(av, "apiextensions.k8s.io/"):
		return rankCRD
	case kind == "Namespace" && av == "v1":
		return rankNamespace
	}
	return rankOther
}

// splitObjects reads a stream of YAML (or JSON) documents, flattening
// Lists, into objects.
func splitObjects(doc []byte) ([]object, error) {
	var out []object
	for i, part := range splitYAMLDocuments(doc) {
		j, err := yaml.YAMLToJSON(part)
		if err != nil {
			return nil, fmt.Errorf("import: document %d: %w", i+1, err)
		}
		if t := bytes.TrimSpace(j); len(t) == 0 || string(t) == "null" {
			continue
		}
		obj, err := jsonx.DecodeObject(j)
		if err != nil {
			return nil, fmt.Errorf("import: document %d is not an object: %w", i+1, err)
		}
		if items, ok := obj["items"].([]any); ok && strings.HasSuffix(str(obj, "kind"), "List") {
			for k, it := range items {
				m, ok := it.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("import: document %d: items[%d] is not an object", i+1, k)
				}
				out = append(out, m)
			}
			continue
		}
		out = append(out, obj)
	}
	return out, nil
}

// splitYAMLDocuments cuts at lines that are exactly "---" (optionally
// followed by spaces or a comment).
func splitYAMLDocuments(doc []byte) [][]byte {
	var parts [][]byte
	start := 0
	for i := 0; i <= len(doc); {
		end := bytes.IndexByte(doc[i:], '\n')
		if end < 0 {
			end = len(doc)
		} else {
			end += i
		}
		line := bytes.TrimRight(doc[i:end], " \t\r")
		if bytes.Equal(line, []byte("---")) || bytes.HasPrefix(line, []byte("--- ")) || bytes.HasPrefix(line, []byte("---#")) {
			parts = append(parts, doc[start:i])
			start = end + 1
		}
		i = end + 1
	}
	if start < len(doc) {
		parts = append(parts, doc[start:])
	}
	return parts
}

// importOne applies one object through the HTTP handler, so it is
// defaulted, validated and recorded exactly as a client's apply would be.
func (s *Server) importOne(obj object) error {
	av, kind := str(obj, "apiVersion"), str(obj, "kind")
	if av == "" || kind == "" {
		return errors.New("apiVersion and kind are required")
	}
	group, version := "", av
	if i := strings.LastIndexByte(av, '/'); i >= 0 {
		group, version = av[:i], av[i+1:]
	}
	res := s.reg.forKind(group, version, kind)
	if res == nil {
		return fmt.Errorf("no matches for kind %q in version %q", kind, av)
	}
	m := meta(obj)
	for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "managedFields", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds", "generation"} {
		delete(m, k)
	}
	path := "/api/" + version
	if group != "" {
		path = "/apis/" + group + "/" + version
	}
	if res.Namespaced {
		ns := str(m, "namespace")
		if ns == "" {
			ns = "default"
			m["namespace"] = ns
		}
		path += "/namespaces/" + url.PathEscape(ns)
	}
	path += "/" + res.Resource
	name := str(m, "name")
	method, ctype, query := http.MethodPost, "application/json", "?fieldManager="+ImportFieldManager
	if name != "" {
		path += "/" + url.PathEscape(name)
		method, ctype, query = http.MethodPatch, "application/apply-patch+yaml", query+"&force=true"
	}
	body, err := jsonx.Marshal(obj)
	if err != nil {
		return err
	}
	req, err := http.NewRequest(method, path+query, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Accept", "application/json")
	w := respbuf.New()
	s.ServeHTTP(w, req)
	if w.Code() >= 300 {
		st, err := jsonx.DecodeObject(w.Body.Bytes())
		if err == nil && str(st, "message") != "" {
			return errors.New(str(st, "message"))
		}
		return fmt.Errorf("HTTP %d: %s", w.Code(), bytes.TrimSpace(w.Body.Bytes()))
	}
	return nil
}
