package builtin

import "github.com/kubesandbox/kubesandbox/core/resource"

// What every cluster holds from its first moment, as kube-apiserver
// v1.37.2's bootstrap controllers create it (pkg/controlplane/controller:
// systemnamespaces, kubernetesservice): the system namespaces and the
// default/kubernetes Service, written by manager "kube-apiserver". The
// Service points at port 6443, kube-apiserver's default secure port, and
// its Endpoints and EndpointSlice (the endpoint reconciler's, with
// EndpointsAdapter's mirror) at the control-plane Node's address, as on a
// kind cluster:
//
//	$ kubectl get endpointslices
//	NAME         ADDRESSTYPE   PORTS   ENDPOINTS    AGE
//	kubernetes   IPv4          6443    172.18.0.2   5s

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
	port := func() map[string]any {
		return map[string]any{"name": "https", "port": int64(6443), "protocol": "TCP"}
	}
	out = append(out, Seed{Version: "v1", Resource: "endpoints", Obj: resource.Object{
		"apiVersion": "v1", "kind": "Endpoints",
		"metadata": map[string]any{"name": "kubernetes", "namespace": "default",
			"labels": map[string]any{"endpointslice.kubernetes.io/skip-mirror": "true"}},
		"subsets": []any{map[string]any{
			"addresses": []any{map[string]any{"ip": APIServerIP}},
			"ports":     []any{port()}}}}})
	out = append(out, Seed{Group: "discovery.k8s.io", Version: "v1", Resource: "endpointslices", Obj: resource.Object{
		"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
		"metadata": map[string]any{"name": "kubernetes", "namespace": "default",
			"labels": map[string]any{"kubernetes.io/service-name": "kubernetes"}},
		"addressType": "IPv4",
		"endpoints": []any{map[string]any{"addresses": []any{APIServerIP},
			"conditions": map[string]any{"ready": true}}},
		"ports": []any{port()}}})
	// the system PriorityClasses (pkg/registry/scheduling/rest's
	// AddSystemPriorityClasses post-start hook)
	for _, pc := range [...]struct {
		name, desc string
		value      int64
	}{
		{"system-node-critical", "Used for system critical pods that must not be moved from their current node.", 2000001000},
		{"system-cluster-critical", "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.", 2000000000},
	} {
		out = append(out, Seed{Group: "scheduling.k8s.io", Version: "v1", Resource: "priorityclasses", Obj: resource.Object{
			"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
			"metadata": map[string]any{"name": pc.name}, "value": pc.value, "description": pc.desc}})
	}
	return out
}

// APIServerIP is the address of the kubernetes Service's endpoint: the
// control-plane Node's InternalIP (kind's first container address).
const APIServerIP = "172.18.0.2"

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
