package controllers

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
)

// The kubelet-less pod lifecycle (only with Options.Nodes > 0; with 0 pods
// stay Pending as on a control plane without Nodes). No node and no
// container runtime exist:
// a new pod is reported, in one status write by "kubelet", as scheduled,
// initialised and Running with every container started and ready (Job pods
// go straight to Succeeded with exit code 0). spec.nodeName stays empty
// (no Node objects, no binding), so deleting a pod stays immediate.
//
// The status is written with PUT …/pods/NAME/status (the real kubelet
// sends a strategic merge patch; the managedFields entry — manager
// "kubelet", operation Update, subresource status — is the same, and a PUT
// keeps the conditions' "lastProbeTime": null as a cluster shows it).

const (
	hostIP               = "172.18.0.2"
	jobTrackingFinalizer = "batch.kubernetes.io/job-tracking"
)

func (m *Manager) syncPod(p obj) error {
	if hasFinalizer(p, jobTrackingFinalizer) && (deleting(p) || terminal(p)) {
		if err := m.releaseOrphanJobPod(p); err != nil {
			return err
		}
	}
	if deleting(p) || m.opts.Nodes <= 0 {
		return nil // no Node to run on: the pod stays Pending
	}
	switch str(p, "status", "phase") {
	case "", "Pending":
	default:
		return nil
	}
	ref, _ := controllerOf(p)
	succeed := ref.Kind == "Job" && ref.group() == "batch"
	status := m.podStatus(p, succeed)
	n := copyObj(p)
	n["status"] = status
	n["apiVersion"], n["kind"] = "v1", "Pod"
	_, err := m.kubelet.do(m.ctx, http.MethodPut, kPods.path(namespace(p), name(p), "status"), ctJSON, n)
	return ignoreNotFound(err)
}

func terminal(p obj) bool {
	ph := str(p, "status", "phase")
	return ph == "Succeeded" || ph == "Failed"
}

// podStatus is the status of a running (or, succeed, completed) pod.
func (m *Manager) podStatus(p obj, succeed bool) map[string]any {
	now := m.timestamp()
	gen := generation(p)
	cond := func(t, s, reason string) any {
		c := map[string]any{"type": t, "status": s, "lastProbeTime": nil, "lastTransitionTime": now}
		if gen > 0 {
			c["observedGeneration"] = gen
		}
		if reason != "" {
			c["reason"] = reason
		}
		return c
	}
	ready, readyReason, started := "True", "", "True"
	if succeed {
		ready, readyReason, started = "False", "PodCompleted", "False"
	}
	ip := m.allocateIP()
	st := map[string]any{
		"phase": "Running",
		"conditions": []any{
			cond("PodReadyToStartContainers", started, ""),
			cond("Initialized", "True", ""),
			cond("Ready", ready, readyReason),
			cond("ContainersReady", ready, readyReason),
			cond("PodScheduled", "True", ""),
		},
		"hostIP": hostIP, "hostIPs": []any{map[string]any{"ip": hostIP}},
		"podIP": ip, "podIPs": []any{map[string]any{"ip": ip}},
		"startTime": now,
	}
	if succeed {
		st["phase"] = "Succeeded"
	}
	if q := str(p, "status", "qosClass"); q != "" {
		st["qosClass"] = q
	}
	if gen > 0 {
		st["observedGeneration"] = gen
	}
	var cs, ics []any
	for _, c := range list(p, "spec", "initContainers") {
		cm, _ := c.(map[string]any)
		ics = append(ics, containerStatus(cm, now, true, false))
	}
	for _, c := range list(p, "spec", "containers") {
		cm, _ := c.(map[string]any)
		cs = append(cs, containerStatus(cm, now, succeed, !succeed))
	}
	if ics != nil {
		st["initContainerStatuses"] = ics
	}
	if cs != nil {
		st["containerStatuses"] = cs
	}
	return st
}

// containerStatus: running (ready, started) or terminated with exit 0.
func containerStatus(c obj, now string, terminated, ready bool) map[string]any {
	id := "containerd://" + randomHex(32)
	image := normalizeImage(str(c, "image"))
	s := map[string]any{
		"name": str(c, "name"), "image": image, "imageID": imageID(image), "containerID": id,
		"lastState": map[string]any{}, "ready": ready, "restartCount": int64(0), "started": ready,
	}
	if terminated {
		s["state"] = map[string]any{"terminated": map[string]any{"containerID": id, "exitCode": int64(0),
			"reason": "Completed", "startedAt": now, "finishedAt": now}}
	} else {
		s["state"] = map[string]any{"running": map[string]any{"startedAt": now}}
	}
	return s
}

// normalizeImage is the reference as containerd reports it:
// "nginx" → "docker.io/library/nginx:latest",
// "bitnami/redis:7" → "docker.io/bitnami/redis:7",
// "registry.k8s.io/pause:3.10" unchanged.
func normalizeImage(ref string) string {
	if ref == "" {
		return ref
	}
	first, _, hasSlash := strings.Cut(ref, "/")
	if !hasSlash || !(strings.ContainsAny(first, ".:") || first == "localhost") {
		if !hasSlash {
			ref = "library/" + ref
		}
		ref = "docker.io/" + ref
	}
	last := ref[strings.LastIndexByte(ref, '/')+1:]
	if !strings.Contains(last, ":") && !strings.Contains(ref, "@") {
		ref += ":latest"
	}
	return ref
}

// imageID is a stable stand-in for the digest no registry was asked for.
func imageID(image string) string {
	repo := image
	if i := strings.IndexByte(image, '@'); i >= 0 {
		return image
	}
	if i := strings.LastIndexByte(repo, ':'); i > strings.LastIndexByte(repo, '/') {
		repo = repo[:i]
	}
	sum := sha256.Sum256([]byte(image))
	return repo + "@sha256:" + hex.EncodeToString(sum[:])
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// allocateIP hands out 10.244.0.2, 10.244.0.3, … (a kind-like pod CIDR).
func (m *Manager) allocateIP() string {
	n := m.nextIP
	m.nextIP++
	return fmt.Sprintf("10.244.%d.%d", (n/250)%256, n%250+2)
}
