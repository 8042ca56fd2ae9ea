package apiserver

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// Validating admission: kube-apiserver's ValidatingAdmissionPolicy plugin,
// the one admission plugin the sandbox runs. It is a step of every write
// of every kind (create, update, patch, apply, status and scale writes,
// delete and each item of a deletecollection, dry runs included) after
// the kind's validation and before the store write, where kube-apiserver
// calls validating admission. The policies are judged by the CEL engine
// (Options.CEL); this file only gathers what kube keeps in informers —
// the stored policies and bindings, the params their paramRefs name, the
// request's Namespace — once per request, before the store's write lock.
//
// A server without an engine, or a cluster without at least one policy
// and one binding, never calls the engine; the policies and bindings come
// from a cache kept by the store's commit hook (policycache.go), so a
// write reads no list of them.
//
//	POST /apis/apps/v1/namespaces/prod/deployments  (replicas: 7)
//	  → validate → admit: Admit({operation: CREATE, object, policies, bindings, namespaceObject})
//	  → Denied: 422 "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding ..."

const (
	policyGroup    = "admissionregistration.k8s.io"
	policyResource = "validatingadmissionpolicies"
	bindingRes     = "validatingadmissionpolicybindings"
)

// admission is one request's admission input, gathered before the write.
type admission struct {
	s *Server
	// plugins are the admission plugins that read other objects
	// (plugins.go); nil: none.
	plugins *pluginRun
	// policies: base is set and the CEL engine judges the write.
	policies bool
	base     cel.AdmissionRequest
	mu       sync.Mutex
	warn     []string
}

// admission gathers the policies for a write of q's resource with the
// given operation and options (nil when nothing can apply).
func (q *request) admission(op string, options object) *admission {
	dry := false
	if l, ok := options["dryRun"].([]any); ok && len(l) > 0 {
		dry = true
	}
	return q.s.admissionFor(q.res, q.ri.namespace, q.ri.name, q.ri.subresource, op, options, dry, q.user())
}

// child is m[key] as an object (nil if it is not one).
func child(m object, key string) object {
	c, _ := m[key].(map[string]any)
	return c
}

func (s *Server) admissionFor(res *resource.Resource, ns, name, sub, op string, options object, dry bool, user resource.User) *admission {
	var plugins *pluginRun
	if op != "DELETE" {
		plugins = s.newPluginRun(res, ns, name, sub, dry)
	}
	if s.opts.CEL == nil {
		return pluginsOnly(s, plugins)
	}
	snap := s.policySnapshot()
	if snap == nil || snap.empty() {
		return pluginsOnly(s, plugins)
	}
	req := cel.AdmissionRequest{
		Operation: op, SubResource: sub, Name: name, Namespace: ns, DryRun: dry,
		Kind:     cel.GVK{Group: res.Group, Version: res.Version, Kind: res.Kind},
		Resource: cel.GVR{Group: res.Group, Version: res.Version, Resource: res.Resource},
		UserInfo: admissionUser(user),
	}
	if !res.Namespaced {
		req.Namespace = ""
	}
	if options != nil {
		req.Options, _ = json.Marshal(options)
	}
	if req.Namespace != "" {
		if nsRes := s.reg.lookup("", "v1", "namespaces"); nsRes != nil {
			if kv, _, err := s.store.Get(storageKey(nsRes, "", req.Namespace), 0); err == nil {
				req.NamespaceObject = kv.Value
			}
		}
	}
	req.Policies = make([]cel.PolicyInput, 0, len(snap.policies))
	for _, p := range snap.policies {
		in := cel.PolicyInput{Policy: p.json}
		if pr := s.paramResource(p.obj); pr != nil {
			in.ParamScope = "Cluster"
			if pr.Namespaced {
				in.ParamScope = "Namespaced"
			}
		}
		req.Policies = append(req.Policies, in)
	}
	req.Bindings = make([]cel.BindingInput, 0, len(snap.bindings))
	for _, b := range snap.bindings {
		in := cel.BindingInput{Binding: b.json}
		if p := snap.byName[str(child(b.obj, "spec"), "policyName")]; p != nil {
			in.Params = s.params(p, b.obj, req.Namespace)
		}
		req.Bindings = append(req.Bindings, in)
	}
	return &admission{s: s, plugins: plugins, policies: true, base: req}
}

// pluginsOnly is the admission of a write no policy judges (nil when no
// plugin runs either).
func pluginsOnly(s *Server, p *pluginRun) *admission {
	if p == nil {
		return nil
	}
	return &admission{s: s, plugins: p}
}

// mutate runs the plugins' Admit on a create (old nil) or update, before
// the kind's PrepareCreate and validation.
func (a *admission) mutate(op string, obj, old object) error {
	if a == nil {
		return nil
	}
	return a.plugins.run(op, obj, old, true, false)
}

// params are the objects a binding's paramRef may select (CollectParams
// picks among them): the named one, or all in the params' namespace.
func (s *Server) params(policy, binding object, reqNS string) []json.RawMessage {
	ref := child(child(binding, "spec"), "paramRef")
	pr := s.paramResource(policy)
	if ref == nil || pr == nil {
		return nil
	}
	ns := ""
	if pr.Namespaced {
		ns = reqNS
		if n := str(ref, "namespace"); n != "" {
			ns = n
		}
		if ns == "" {
			return nil
		}
	}
	if name := str(ref, "name"); name != "" {
		kv, _, err := s.store.Get(storageKey(pr, ns, name), 0)
		if err != nil {
			return nil
		}
		return []json.RawMessage{withTypeMeta(pr, kv.Value)}
	}
	var out []json.RawMessage
	for _, kv := range s.listAll(pr, ns) {
		out = append(out, withTypeMeta(pr, kv.Value))
	}
	return out
}

// paramResource is the served resource of a policy's paramKind.
func (s *Server) paramResource(policy object) *resource.Resource {
	pk := child(child(policy, "spec"), "paramKind")
	if pk == nil {
		return nil
	}
	av := str(pk, "apiVersion")
	group, version, ok := strings.Cut(av, "/")
	if !ok {
		group, version = "", av
	}
	return s.reg.forKind(group, version, str(pk, "kind"))
}

// withTypeMeta gives a stored object its apiVersion and kind.
func withTypeMeta(res *resource.Resource, b []byte) json.RawMessage {
	o, err := jsonx.DecodeObject(b)
	if err != nil {
		return b
	}
	o["apiVersion"], o["kind"] = res.GroupVersion(), res.Kind
	return mustJSON(o)
}

func mustJSON(o object) json.RawMessage {
	b, _ := jsonx.Marshal(o)
	return b
}

func (s *Server) listAll(res *resource.Resource, ns string) []store.KV {
	kvs, _, _, _ := s.store.List(storagePrefix(res, ns), "", 0, nil, 0)
	return kvs
}

// admit runs the engine on one write: obj is nil on DELETE, old nil on
// CREATE. A denial is kube's Status; an engine failure a 500.
func (a *admission) admit(op string, res *resource.Resource, obj, old object) error {
	if a == nil {
		return nil
	}
	if err := a.plugins.run(op, obj, old, false, false); err != nil {
		return err
	}
	if err := a.policyAdmit(op, res, obj, old); err != nil {
		return err
	}
	return a.plugins.run(op, obj, old, false, true)
}

// policyAdmit is the ValidatingAdmissionPolicy step.
func (a *admission) policyAdmit(op string, res *resource.Resource, obj, old object) error {
	if !a.policies {
		return nil
	}
	req := a.base
	req.Operation = op
	typed := func(o object) json.RawMessage {
		if req.SubResource == "scale" {
			// the scale subresource is admitted as its autoscaling/v1 Scale
			return mustJSON(scaleOf(res, o))
		}
		o = jsonx.CopyObject(o)
		o["apiVersion"], o["kind"] = res.GroupVersion(), res.Kind
		return mustJSON(o)
	}
	if req.SubResource == "scale" {
		req.Kind = cel.GVK{Group: "autoscaling", Version: "v1", Kind: "Scale"}
	}
	if obj != nil {
		req.Object = typed(obj)
		if req.Name == "" {
			req.Name = metaStr(obj, "name")
		}
	}
	if old != nil {
		req.Old = typed(old)
	}
	resp, err := a.s.opts.CEL.Admit(req)
	if err != nil {
		return apierr.Internal(err)
	}
	a.mu.Lock()
	a.warn = append(a.warn, resp.Warnings...)
	a.mu.Unlock()
	if len(resp.Denied) > 0 {
		return apierr.FromStatus(500, resp.Denied)
	}
	return nil
}

// warnings are the Warn texts as Warning headers.
func (a *admission) warnings() []string {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, w := range a.warn {
		if h, ok := warningHeader(w); ok {
			out = append(out, h)
		}
	}
	return out
}

// writeOptions are the request's options object (request.options in CEL).
func writeOptions(kind string, dry bool) object {
	o := object{"kind": kind, "apiVersion": "meta.k8s.io/v1"}
	if dry {
		o["dryRun"] = []any{"All"}
	}
	return o
}

// admissionUser is request.userInfo: a service account whose token the
// server issued is itself; any other request is the cluster admin the
// sandbox serves everyone as (authorization is off).
func admissionUser(u resource.User) cel.UserInfo {
	name, _ := u["username"].(string)
	if name == "" || name == "system:anonymous" {
		return cel.UserInfo{Username: "system:admin", Groups: []string{"system:masters", "system:authenticated"}}
	}
	info := cel.UserInfo{Username: name}
	info.UID, _ = u["uid"].(string)
	info.Groups = jsonx.Strings(u["groups"])
	return info
}
