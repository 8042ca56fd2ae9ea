package apiserver

import (
	"fmt"
	"sync/atomic"

	"github.com/kubesandbox/kubesandbox/core/resource"
)

// Service IP and node-port allocation, as the Service registry does on
// create: a ClusterIP from 10.96.0.0/12 (10.96.0.1 is the cluster's own
// "kubernetes" Service on a real cluster, so ours start at .10) and a node
// port from 30000–32767 for NodePort and LoadBalancer Services. The
// sandbox never reuses either; nothing routes to them.

type allocator struct {
	ip, port atomic.Int64
}

func (a *allocator) nextIP() string {
	n := a.ip.Add(1) + 9
	return fmt.Sprintf("10.96.%d.%d", (n/254)%256, n%254+1)
}

func (a *allocator) nextPort() int64 { return 30000 + (a.port.Add(1)-1)%2768 }

// allocateService fills spec.clusterIP(s) and node ports of a new Service.
func (s *Server) allocateService(res *resource.Resource, obj object) {
	if res.CRD || res.Kind != "Service" || res.Group != "" {
		return
	}
	spec, _ := obj["spec"].(map[string]any)
	if spec == nil {
		return
	}
	typ := str(spec, "type")
	if typ == "ExternalName" {
		return
	}
	if str(spec, "clusterIP") == "" {
		ip := s.alloc.nextIP()
		spec["clusterIP"] = ip
		spec["clusterIPs"] = []any{ip}
	}
	if typ == "NodePort" || typ == "LoadBalancer" {
		for _, p := range asList(spec["ports"]) {
			pm := mapOf(p)
			if pm == nil {
				continue
			}
			if n, ok := int64Of(pm["nodePort"]); !ok || n == 0 {
				pm["nodePort"] = s.alloc.nextPort()
			}
		}
	}
}
