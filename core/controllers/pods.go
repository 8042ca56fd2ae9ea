package controllers

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// A Pod's way through the simulated cluster (only with Options.Nodes > 0;
// with 0 Pods stay Pending as created, as on a control plane without
// scheduler, kubelet or Nodes):
//
//	created ─▶ scheduler.go: bound to a Node (or Pending, Unschedulable)
//	        ─▶ kubelet.go: ContainerCreating ─▶ Running (a Job's Pod: ─▶ Succeeded)
//	DELETE  ─▶ Terminating (deletionTimestamp + grace period) ─▶ kubelet.go: Killing, removed
//
// A Pod bound to a Node the simulation did not make (one a client
// created) is left alone: no kubelet runs there.

const jobTrackingFinalizer = "batch.kubernetes.io/job-tracking"

func (m *Manager) syncPod(p obj) error {
	if hasFinalizer(p, jobTrackingFinalizer) && (deleting(p) || terminal(p)) {
		if err := m.releaseOrphanJobPod(p); err != nil {
			return err
		}
	}
	if m.opts.Nodes <= 0 {
		return nil // no Node to run on: the pod stays Pending
	}
	if m.schedulable(p) {
		return m.schedule(p)
	}
	delete(m.unscheduled, kPods.storeKey(namespace(p), name(p)))
	if m.nodeIndex(str(p, "spec", "nodeName")) < 0 {
		return nil
	}
	return m.runPod(p)
}

func terminal(p obj) bool {
	ph := str(p, "status", "phase")
	return ph == "Succeeded" || ph == "Failed"
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

// withDefaultTag is the kubelet's applyDefaultImageTag, the image its
// events name: "nginx" → "nginx:latest", "nginx:1.27" unchanged.
func withDefaultTag(ref string) string {
	last := ref[strings.LastIndexByte(ref, '/')+1:]
	if ref == "" || strings.Contains(last, ":") || strings.Contains(ref, "@") {
		return ref
	}
	return ref + ":latest"
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
	return repo + "@sha256:" + sha(image)
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
