package apiserver

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"sort"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// Discovery: /api, /apis, /apis/G, /api/v1 and /apis/G/V, in the legacy
// (unaggregated) form.

// writeDiscovery answers a discovery document in the negotiated media
// type: JSON or YAML, 406 for a type the server does not serve (text/plain).
// A protobuf-only Accept still gets JSON (the documents have no protobuf
// encoder here).
func writeDiscovery(w http.ResponseWriter, r *http.Request, doc map[string]any) {
	out, err := negotiate(r, nil)
	if err != nil && !acceptsOnlyProtobuf(r) {
		writeError(w, err)
		return
	}
	media := mediaJSON
	if out.media == mediaYAML {
		media = mediaYAML
	}
	writeObject(w, http.StatusOK, output{media: media}, doc)
}

func (s *Server) serveAPIVersions(w http.ResponseWriter, r *http.Request) {
	writeDiscovery(w, r, map[string]any{
		"kind": "APIVersions", "versions": []any{"v1"},
		"serverAddressByClientCIDRs": []any{map[string]any{"clientCIDR": "0.0.0.0/0", "serverAddress": r.Host}},
	})
}

func (s *Server) groupDoc(group string) map[string]any {
	var versions []any
	for _, v := range s.reg.groupVersions(group) {
		versions = append(versions, map[string]any{"groupVersion": group + "/" + v, "version": v})
	}
	if len(versions) == 0 {
		return nil
	}
	return map[string]any{"name": group, "versions": versions, "preferredVersion": versions[0]}
}

func (s *Server) serveAPIGroupList(w http.ResponseWriter, r *http.Request) {
	groups := []any{}
	for _, g := range s.reg.groups() {
		if g == "" {
			continue
		}
		if d := s.groupDoc(g); d != nil {
			groups = append(groups, d)
		}
	}
	writeDiscovery(w, r, map[string]any{"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

func (s *Server) serveAPIGroup(w http.ResponseWriter, r *http.Request, group string) {
	d := s.groupDoc(group)
	if d == nil {
		http.NotFound(w, r)
		return
	}
	d["kind"], d["apiVersion"] = "APIGroup", "v1"
	writeDiscovery(w, r, d)
}

// crdVerbs is the order the apiextensions server lists verbs in.
var crdVerbs = []string{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}
var builtinVerbs = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}

func (s *Server) serveResourceList(w http.ResponseWriter, r *http.Request, ri reqInfo) {
	var list []*resource.Resource
	for _, res := range s.reg.all() {
		if res.Group == ri.group && res.Version == ri.version {
			list = append(list, res)
		}
	}
	if len(list) == 0 || (ri.legacy && ri.version != "v1") {
		http.NotFound(w, r)
		return
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Resource < list[j].Resource })
	gv := list[0].GroupVersion()
	resources := []any{}
	for _, res := range list {
		verbs := res.Verbs
		if verbs == nil {
			verbs = builtinVerbs
			if res.CRD {
				verbs = crdVerbs
			}
		}
		e := map[string]any{
			"name": res.Resource, "singularName": res.Singular, "namespaced": res.Namespaced,
			"kind": res.Kind, "verbs": jsonx.Anys(verbs),
		}
		if res.Hooks.Answer == nil && res.Hooks.Computed == nil { // a virtual resource stores nothing
			e["storageVersionHash"] = storageVersionHash(res)
		}
		if len(res.ShortNames) > 0 {
			e["shortNames"] = jsonx.Anys(res.ShortNames)
		}
		if len(res.Categories) > 0 {
			e["categories"] = jsonx.Anys(res.Categories)
		}
		resources = append(resources, e)
		if res.Status {
			resources = append(resources, map[string]any{"name": res.Resource + "/status", "singularName": "", "namespaced": res.Namespaced,
				"kind": res.Kind, "verbs": []any{"get", "patch", "update"}})
		}
		if res.Scale != nil {
			resources = append(resources, map[string]any{"name": res.Resource + "/scale", "singularName": "", "namespaced": res.Namespaced,
				"group": "autoscaling", "version": "v1", "kind": "Scale", "verbs": []any{"get", "patch", "update"}})
		}
		resources = append(resources, subresourceDiscovery(res)...)
	}
	writeDiscovery(w, r, map[string]any{
		"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": resources,
	})
}

// storageVersionHash is base64(sha256("group/version/kind")[:8]) of the
// storage version, as kube-apiserver computes it: a View's objects are
// the storing group's ("/v1/Event" for events.k8s.io/v1 Events).
func storageVersionHash(res *resource.Resource) string {
	g, v := res.Group, res.Version
	switch {
	case res.StorageVersion != "":
		v = res.StorageVersion
	case res.EncodingVersion != "":
		v = res.EncodingVersion
	}
	if res.View != nil {
		g = res.View.Group
	}
	sum := sha256.Sum256([]byte(g + "/" + v + "/" + res.Kind))
	return base64.StdEncoding.EncodeToString(sum[:8])
}
