package builtin

import "github.com/kubesandbox/kubesandbox/core/resource"

// What every cluster holds from its first moment, as kube-apiserver
// v1.37.2's bootstrap controllers create it (pkg/controlplane/controller:
// systemnamespaces, kubernetesservice): the system namespaces and the
// default/kubernetes Service, written by manager "kube-apiserver". The
// Service points at port 6443, kube-apiserver's default secure port; no
// EndpointSlice is made (nothing here serves one).

// BootstrapManager is the field manager of the bootstrap objects.
const BootstrapManager = "kube-apiserver"

// Seed is one object the server creates at start.
type Seed struct {
	Group, Version, Resource string // where it is served
	Obj                      resource.Object
}

// SystemNamespaces are the namespaces every cluster has.
var SystemNamespaces = []string{"default", "kube-system", "kube-public", "kube-node-lease"}

// Bootstrap returns fresh copies of the objects a new server creates, in
// order (namespaces first).
func Bootstrap() []Seed {
	var out []Seed
	for _, ns := range SystemNamespaces {
		out = append(out, Seed{Version: "v1", Resource: "namespaces", Obj: resource.Object{
			"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}})
	}
	out = append(out, Seed{Version: "v1", Resource: "services", Obj: resource.Object{
		"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": "kubernetes", "namespace": "default",
			"labels": map[string]any{"provider": "kubernetes", "component": "apiserver"}},
		"spec": map[string]any{
			"ports":           []any{map[string]any{"name": "https", "port": int64(443), "protocol": "TCP", "targetPort": int64(6443)}},
			"clusterIP":       "10.96.0.1",
			"ipFamilyPolicy":  "SingleStack",
			"sessionAffinity": "None",
			"type":            "ClusterIP",
		}}})
	return out
}

// undeletableNamespaces may not be deleted (the NamespaceLifecycle
// admission plugin's immortal namespaces).
var undeletableNamespaces = map[string]bool{"default": true, "kube-system": true, "kube-public": true}

// namespaceForbidDelete: "namespaces \"default\" is forbidden: this
// namespace may not be deleted".
func namespaceForbidDelete(ns resource.Object) string {
	if undeletableNamespaces[metaStr(ns, "name")] {
		return "this namespace may not be deleted"
	}
	return ""
}
