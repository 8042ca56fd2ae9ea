package builtin

import (
	"time"

	"github.com/kubesandbox/kubesandbox/core/resource"
)

// componentStatuses answers GET /api/v1/componentstatuses (deprecated in
// v1.19, still served by kube-apiserver v1.37.2): the health of the
// control plane's scheduler, controller-manager and etcd members, probed
// on each request. The sandbox is all three: its store is etcd-0, always
// healthy; its in-process controllers (scheduler included) are the
// scheduler and the controller-manager, healthy ("ok", as their /healthz
// answers) where they run. Without them (-controllers=false, the envtest
// shape) nothing listens, and the answer is the one kube-apiserver gives
// for a component that does not run:
//
//	$ kubectl get componentstatuses
//	Warning: v1 ComponentStatus is deprecated in v1.19+
//	NAME                 STATUS      MESSAGE                                                                                        ERROR
//	scheduler            Unhealthy   Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused
//	controller-manager   Unhealthy   Get "https://127.0.0.1:10257/healthz": dial tcp 127.0.0.1:10257: connect: connection refused
//	etcd-0               Healthy     ok
func componentStatuses(controllers bool) []resource.Object {
	return []resource.Object{
		component("scheduler", controllers, "10259"),
		component("controller-manager", controllers, "10257"),
		component("etcd-0", true, ""),
	}
}

func component(name string, up bool, port string) resource.Object {
	cond := map[string]any{"type": "Healthy", "status": "True", "message": "ok"}
	if !up {
		cond["status"] = "False"
		cond["message"] = `Get "https://127.0.0.1:` + port + `/healthz": dial tcp 127.0.0.1:` + port + `: connect: connection refused`
	}
	return resource.Object{"metadata": map[string]any{"name": name}, "conditions": []any{cond}}
}

// healthy is printComponentStatus's Status, Message and Error from the
// Healthy condition ("Unknown", "", "" without one).
func healthy(o resource.Object) (status, message, err string) {
	for _, c := range listOf(o["conditions"]) {
		if m := mapOf(c); str(m, "type") == "Healthy" {
			status = "Unhealthy"
			if str(m, "status") == "True" {
				status = "Healthy"
			}
			return status, str(m, "message"), str(m, "error")
		}
	}
	return "Unknown", "", ""
}

func componentStatusCell(o resource.Object, _ time.Time) any  { s, _, _ := healthy(o); return s }
func componentMessageCell(o resource.Object, _ time.Time) any { _, m, _ := healthy(o); return m }
func componentErrorCell(o resource.Object, _ time.Time) any   { _, _, e := healthy(o); return e }
