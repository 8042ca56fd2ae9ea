package builtin

import (
	"fmt"
	"sync/atomic"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// A Service's name is a DNS-1035 label; its cluster IP and node ports are
// allocated on create, as the Service registry does: a ClusterIP from
// 10.96.0.0/12 (10.96.0.1 is the cluster's own "kubernetes" Service on a
// real cluster, so ours start at .10) and a node port from 30000–32767 for
// NodePort and LoadBalancer Services. The sandbox never reuses either;
// nothing routes to them. Each call of Resources (each server) gets its
// own allocator.

func serviceHooks(h *resource.Hooks) {
	h.Name = validation.NameIsDNS1035Label
	h.Allocate = new(allocator).allocate
}

type allocator struct {
	ip, port atomic.Int64
}

func (a *allocator) nextIP() string {
	n := a.ip.Add(1) + 9
	return fmt.Sprintf("10.96.%d.%d", (n/254)%256, n%254+1)
}

func (a *allocator) nextPort() int64 { return 30000 + (a.port.Add(1)-1)%2768 }

// allocate fills spec.clusterIP(s) and node ports of a new Service.
func (a *allocator) allocate(obj resource.Object) {
	spec := child(obj, "spec")
	if spec == nil {
		return
	}
	typ := str(spec, "type")
	if typ == "ExternalName" {
		return
	}
	if str(spec, "clusterIP") == "" {
		ip := a.nextIP()
		spec["clusterIP"] = ip
		spec["clusterIPs"] = []any{ip}
	}
	if typ == "NodePort" || typ == "LoadBalancer" {
		for _, p := range listOf(spec["ports"]) {
			pm := mapOf(p)
			if pm == nil {
				continue
			}
			if n, ok := jsonx.Int64(pm["nodePort"]); !ok || n == 0 {
				pm["nodePort"] = a.nextPort()
			}
		}
	}
}
