package controllers

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// The Nodes of the simulated cluster (only with Options.Nodes > 0), named
// as kind names a cluster called "sandbox", so that what a learner sees
// here is what `kind create cluster --name sandbox` shows:
//
//	Nodes 1: sandbox-control-plane (untainted: a single-node kind cluster
//	         runs workloads on its control plane)
//	Nodes 3: sandbox-control-plane (node-role.kubernetes.io/control-plane:NoSchedule),
//	         sandbox-worker, sandbox-worker2
//
// Each is registered as its kubelet registers it (POST as "kubelet": the
// well-known labels, kubeadm's annotations, capacity — 4 cpu, 8029624Ki
// memory, 110 pods, hugepages 0 — nodeInfo of a kubelet v1.37.2 on
// containerd, addresses, the kubelet endpoint), its status then turns
// Ready (KubeletReady, "kubelet is posting ready status"), and, as
// kube-controller-manager, the node-ipam controller gives it a pod CIDR
// (10.244.<index>.0/24) and the node lifecycle controller removes the
// node.kubernetes.io/not-ready:NoSchedule taint the API server put on it.
// Nodes already stored (a restored state) are left as they are, and put
// right if they lack one of those steps.

const (
	controlPlaneTaint = "node-role.kubernetes.io/control-plane"
	notReadyTaint     = "node.kubernetes.io/not-ready"
	nodeIPBase        = 2 // sandbox-control-plane is 172.18.0.2
)

var (
	kNodes  = kindInfo{"", "v1", "nodes", "Node", false}
	kLeases = kindInfo{"coordination.k8s.io", "v1", "leases", "Lease", true}
)

// nodeLeaseNamespace holds each Node's heartbeat Lease.
const nodeLeaseNamespace = "kube-node-lease"

// nodeNames are the names of the n Nodes.
func nodeNames(n int) []string {
	if n <= 0 {
		return nil
	}
	names := []string{"sandbox-control-plane"}
	for i := 1; i < n; i++ {
		if i == 1 {
			names = append(names, "sandbox-worker")
		} else {
			names = append(names, "sandbox-worker"+strconv.Itoa(i))
		}
	}
	return names
}

// nodeIndex is a simulated Node's position (0 for the control plane), or
// -1 for a Node the simulation did not make.
func (m *Manager) nodeIndex(nodeName string) int {
	for i, n := range nodeNames(m.opts.Nodes) {
		if n == nodeName {
			return i
		}
	}
	return -1
}

func nodeIP(i int) string { return fmt.Sprintf("172.18.0.%d", i+nodeIPBase) }

// ensureNodes registers the Nodes that are not stored yet.
func (m *Manager) ensureNodes() error {
	for i, n := range nodeNames(m.opts.Nodes) {
		node := m.get(kNodes, "", n)
		if node == nil {
			out, err := m.kubelet.do(m.ctx, http.MethodPost, kNodes.path("", "", ""), ctJSON, m.newNode(i, n))
			if err != nil && !isCode(err, http.StatusConflict) {
				return err
			}
			if err == nil {
				m.nodeStarted(out)
				node = out
			}
		}
		if err := m.ensureNodeLease(node, n); err != nil {
			return err
		}
	}
	return nil
}

// ensureNodeLease writes the Node's Lease in kube-node-lease as a
// starting kubelet does (kubectl describe node prints it): holder the
// Node, 40 s duration, owned by the Node so it goes with it. The real
// kubelet renews it every 10 s; the simulation writes it once, so its
// renewTime is the kubelet's start (no timer churns the watch history).
func (m *Manager) ensureNodeLease(node obj, n string) error {
	if node == nil || m.get(kLeases, nodeLeaseNamespace, n) != nil {
		return nil
	}
	lease := obj{
		"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
		"metadata": map[string]any{"name": n, "namespace": nodeLeaseNamespace, "ownerReferences": []any{map[string]any{
			"apiVersion": "v1", "kind": "Node", "name": n, "uid": str(node, "metadata", "uid"),
		}}},
		"spec": map[string]any{"holderIdentity": n, "leaseDurationSeconds": int64(40),
			"renewTime": m.now().UTC().Format("2006-01-02T15:04:05.000000Z")},
	}
	_, err := m.kubelet.do(m.ctx, http.MethodPost, kLeases.path(nodeLeaseNamespace, "", ""), ctJSON, lease)
	if isCode(err, http.StatusConflict) {
		return nil
	}
	return err
}

func (m *Manager) newNode(i int, n string) obj {
	labels := map[string]any{
		"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
		"kubernetes.io/arch": "amd64", "kubernetes.io/hostname": n, "kubernetes.io/os": "linux",
	}
	spec := map[string]any{"providerID": "kind://docker/sandbox/" + n}
	if i == 0 {
		labels["node-role.kubernetes.io/control-plane"] = ""
		labels["node.kubernetes.io/exclude-from-external-load-balancers"] = ""
		if m.opts.Nodes > 1 {
			spec["taints"] = []any{map[string]any{"key": controlPlaneTaint, "effect": "NoSchedule"}}
		}
	}
	res := map[string]any{"cpu": "4", "ephemeral-storage": "102626232Ki", "hugepages-1Gi": "0",
		"hugepages-2Mi": "0", "memory": "8029624Ki", "pods": "110"}
	sum := sha(n)
	return obj{
		"apiVersion": "v1", "kind": "Node",
		"metadata": map[string]any{"name": n, "labels": labels, "annotations": map[string]any{
			"kubeadm.alpha.kubernetes.io/cri-socket":                 "unix:///run/containerd/containerd.sock",
			"node.alpha.kubernetes.io/ttl":                           "0",
			"volumes.kubernetes.io/controller-managed-attach-detach": "true",
		}},
		"spec": spec,
		"status": map[string]any{
			"capacity": res, "allocatable": copyObj(res),
			"addresses": []any{map[string]any{"type": "InternalIP", "address": nodeIP(i)},
				map[string]any{"type": "Hostname", "address": n}},
			"daemonEndpoints": map[string]any{"kubeletEndpoint": map[string]any{"Port": int64(10250)}},
			"nodeInfo": map[string]any{
				"architecture": "amd64", "bootID": uuidOf(sum[8:]), "containerRuntimeVersion": "containerd://2.1.3",
				"kernelVersion": "6.8.0-1021-gcp", "kubeletVersion": "v1.37.2", "kubeProxyVersion": "",
				"machineID": sum[:32], "operatingSystem": "linux", "osImage": "Debian GNU/Linux 12 (bookworm)",
				"systemUUID": uuidOf(sum[16:]),
			},
			"conditions": m.nodeConditions(nil),
		},
	}
}

// nodeConditions are the four conditions a healthy kubelet posts; old
// keeps their transition times.
func (m *Manager) nodeConditions(old []any) []any {
	now := m.timestamp()
	prev := map[string]obj{}
	for _, c := range old {
		if cm, ok := c.(map[string]any); ok {
			prev[str(cm, "type")] = cm
		}
	}
	cond := func(typ, status, reason, msg string) any {
		t := now
		if p := prev[typ]; p != nil && str(p, "status") == status && str(p, "lastTransitionTime") != "" {
			t = str(p, "lastTransitionTime")
		}
		return map[string]any{"type": typ, "status": status, "reason": reason, "message": msg,
			"lastHeartbeatTime": now, "lastTransitionTime": t}
	}
	return []any{
		cond("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
		cond("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
		cond("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
		cond("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
	}
}

// syncNode: a simulated Node's kubelet reports it Ready; then the
// controller manager gives it a pod CIDR and lifts the not-ready taint.
// Then, and for Nodes a client registers, the NoSchedule tainting pass
// (nodetaints.go). Any Node change may let waiting Pods schedule.
func (m *Manager) syncNode(n obj) error {
	i := m.nodeIndex(name(n))
	if deleting(n) {
		return nil
	}
	if i < 0 {
		// a Node registered by a client: no kubelet of ours posts its
		// status; the lifecycle controller's tainting pass still runs
		return m.taintNodeByConditions(n)
	}
	if !nodeReady(n) {
		next := copyObj(n)
		ensure(next, "status")["conditions"] = m.nodeConditions(list(n, "status", "conditions"))
		_, err := m.kubelet.do(m.ctx, http.MethodPut, kNodes.path("", name(n), "status"), ctJSON, next)
		return ignoreNotFound(err)
	}
	var taints []any
	lift := false
	for _, t := range list(n, "spec", "taints") {
		if tm, _ := t.(map[string]any); str(tm, "key") == notReadyTaint {
			lift = true
			continue
		}
		taints = append(taints, t)
	}
	cidr := fmt.Sprintf("10.244.%d.0/24", i)
	if !lift && str(n, "spec", "podCIDR") != "" {
		return m.taintNodeByConditions(n) // a cordon, an uncordon
	}
	spec := map[string]any{}
	if str(n, "spec", "podCIDR") == "" {
		spec["podCIDR"], spec["podCIDRs"] = cidr, []any{cidr}
	}
	if lift {
		if taints == nil {
			spec["taints"] = nil
		} else {
			spec["taints"] = taints
		}
	}
	_, err := m.cm.do(m.ctx, http.MethodPatch, kNodes.path("", name(n), ""), ctMerge, obj{"spec": spec})
	if err == nil && lift {
		m.recordAs(m.cm, n, kNodes, "node-controller", "", "", "Normal", "RegisteredNode",
			fmt.Sprintf("Node %s event: Registered Node %s in Controller", name(n), name(n)))
	}
	return ignoreNotFound(err)
}

// nodeStarted records what a starting kubelet reports about its Node.
func (m *Manager) nodeStarted(n obj) {
	ev := func(reason, msg string) {
		m.recordAs(m.kubelet, n, kNodes, "kubelet", name(n), "", "Normal", reason, msg)
	}
	ev("Starting", "Starting kubelet.")
	ev("NodeAllocatableEnforced", "Updated Node Allocatable limit across pods")
	for _, s := range []string{"NodeHasSufficientMemory", "NodeHasNoDiskPressure", "NodeHasSufficientPID", "NodeReady"} {
		ev(s, fmt.Sprintf("Node %s status is now: %s", name(n), s))
	}
}

func nodeReady(n obj) bool {
	for _, c := range list(n, "status", "conditions") {
		if cm, _ := c.(map[string]any); str(cm, "type") == "Ready" {
			return str(cm, "status") == "True"
		}
	}
	return false
}

// nodeInternalIP is the Node's InternalIP address.
func nodeInternalIP(n obj) string {
	for _, a := range list(n, "status", "addresses") {
		if am, _ := a.(map[string]any); str(am, "type") == "InternalIP" {
			return str(am, "address")
		}
	}
	return ""
}

func uuidOf(h string) string {
	h = (h + strings.Repeat("0", 32))[:32]
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// ensureNodesKey queues ensureNodes (at start).
const ensureNodesKey = "ensure-nodes"

// clusterChanged: a Pod or Node write may free room for waiting Pods, and
// a Node write may change where DaemonSets run.
func (m *Manager) clusterChanged(key string) {
	if m.opts.Nodes <= 0 {
		return
	}
	switch {
	case strings.HasPrefix(key, "/core/nodes/"):
		m.requeueUnscheduled()
		for _, s := range m.listKind(kDaemonSets, "", nil) {
			m.q.add(s.key)
		}
	case strings.HasPrefix(key, "/core/pods/"):
		if len(m.unscheduled) > 0 && !m.unscheduled[key] {
			m.requeueUnscheduled()
		}
	}
}
