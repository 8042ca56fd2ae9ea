package controllers

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/internal/respbuf"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// The controllers are API clients: every write is an HTTP request served
// in-process by the API server's http.Handler, so admission, validation,
// managedFields, resourceVersions and watch events are exactly those of any
// other client. Reads come from the store directly (the informer cache of
// a real controller manager).

// User agents: the field manager of a non-apply write is the program name
// before the first '/', so entries read "kube-controller-manager" and
// "kubelet" as on a cluster.
const (
	controllerManagerUA = "kube-controller-manager/v1.37.2 (linux/amd64) kubernetes/kubesandbox"
	kubeletUA           = "kubelet/v1.37.2 (linux/amd64) kubernetes/kubesandbox"
)

const (
	ctJSON      = "application/json"
	ctMerge     = "application/merge-patch+json"
	ctStrategic = "application/strategic-merge-patch+json"
	ctApply     = "application/apply-patch+yaml"
)

// apiError is a non-2xx answer.
type apiError struct {
	Code    int
	Reason  string
	Message string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Code, e.Reason, e.Message) }

func isCode(err error, code int) bool {
	e, ok := err.(*apiError)
	return ok && e.Code == code
}

// client sends requests to the handler with one User-Agent.
type client struct {
	h  http.Handler
	ua string
}

// do sends body (marshalled unless []byte) and decodes the answer.
func (c client) do(ctx context.Context, method, path, contentType string, body any) (obj, error) {
	var raw []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = jsonx.Marshal(b); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://kubesandbox.local"+path, bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", c.ua)
	req.Header.Set("Accept", "application/json")
	if raw != nil {
		req.Header.Set("Content-Type", contentType)
	}
	rec := respbuf.New()
	c.h.ServeHTTP(rec, req)
	out := decode(rec.Body.Bytes())
	if rec.Code() < 200 || rec.Code() > 299 {
		e := &apiError{Code: rec.Code(), Reason: str(out, "reason"), Message: str(out, "message")}
		if e.Message == "" {
			e.Message = strings.TrimSpace(rec.Body.String())
		}
		return out, e
	}
	return out, nil
}

// kindInfo locates a resource.
type kindInfo struct {
	Group, Version, Plural, Kind string
	Namespaced                   bool
}

func (k kindInfo) apiVersion() string {
	if k.Group == "" {
		return k.Version
	}
	return k.Group + "/" + k.Version
}

// path is the URL of a collection (name "") or an object, with an optional
// subresource.
func (k kindInfo) path(ns, name, sub string) string {
	p := "/apis/" + k.Group + "/" + k.Version
	if k.Group == "" {
		p = "/api/" + k.Version
	}
	if k.Namespaced && ns != "" {
		p += "/namespaces/" + ns
	}
	p += "/" + k.Plural
	if name != "" {
		p += "/" + name
		if sub != "" {
			p += "/" + sub
		}
	}
	return p
}

// storeKey is the storage key (see apiserver's storageKey).
func (k kindInfo) storeKey(ns, name string) string {
	return k.storePrefix(ns) + name
}

func (k kindInfo) storePrefix(ns string) string {
	g := k.Group
	if g == "" {
		g = "core"
	}
	p := "/" + g + "/" + k.Plural + "/"
	if k.Namespaced && ns != "" {
		p += ns + "/"
	}
	return p
}

var (
	kPods                   = kindInfo{"", "v1", "pods", "Pod", true}
	kEvents                 = kindInfo{"", "v1", "events", "Event", true}
	kReplicaSets            = kindInfo{"apps", "v1", "replicasets", "ReplicaSet", true}
	kReplicationControllers = kindInfo{"", "v1", "replicationcontrollers", "ReplicationController", true}
	kDeployments            = kindInfo{"apps", "v1", "deployments", "Deployment", true}
	kStatefulSets           = kindInfo{"apps", "v1", "statefulsets", "StatefulSet", true}
	kDaemonSets             = kindInfo{"apps", "v1", "daemonsets", "DaemonSet", true}
	kJobs                   = kindInfo{"batch", "v1", "jobs", "Job", true}
)

// builtinKinds maps group/Kind and group/plural of the built-in catalogue;
// built on first use (loading the catalogue at package init would cost
// every program that links this package its start-up time).
var builtinKinds = sync.OnceValue(func() map[string]kindInfo {
	m := map[string]kindInfo{}
	for _, r := range builtin.Resources() {
		k := kindInfo{Group: r.Group, Version: r.Version, Plural: r.Resource, Kind: r.Kind, Namespaced: r.Namespaced}
		m[r.Group+"/"+r.Kind] = k
		m[r.Group+"/"+r.Resource+"/"] = k
	}
	return m
})

// parseKey splits a storage key into group, plural, namespace and name.
// "/apps/deployments/default/web" → apps, deployments, default, web.
func parseKey(key string) (group, plural, ns, name string, ok bool) {
	parts := strings.Split(key, "/")
	switch len(parts) {
	case 5:
		group, plural, ns, name = parts[1], parts[2], parts[3], parts[4]
	case 4:
		group, plural, name = parts[1], parts[2], parts[3]
	default:
		return "", "", "", "", false
	}
	if group == "core" {
		group = ""
	}
	return group, plural, ns, name, name != ""
}
