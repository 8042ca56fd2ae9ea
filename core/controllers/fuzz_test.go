package controllers

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/store"
)

// okHandler answers every request 200 with an empty object: the fuzz
// targets exercise the controllers' reading of arbitrary stored objects,
// not the API server.
type okHandler struct{}

func (okHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"metadata":{"name":"x","uid":"u"}}`))
}

// FuzzReconcile stores arbitrary bytes under the keys of every kind the
// controllers handle and reconciles them: nothing may panic.
func FuzzReconcile(f *testing.F) {
	f.Add([]byte(`{"metadata":{"name":"web","namespace":"default","uid":"1","generation":1},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}}}}}`))
	f.Add([]byte(`{"metadata":{"name":"p","namespace":"default","ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"r","uid":"9","controller":true}],"finalizers":["batch.kubernetes.io/job-tracking"],"deletionTimestamp":"x"},"status":{"phase":"Succeeded"}}`))
	f.Add([]byte(`{"metadata":{"ownerReferences":"x","finalizers":[1,null]},"spec":{"selector":{"matchLabels":[],"matchExpressions":[{"operator":"In"}]},"strategy":{"rollingUpdate":{"maxSurge":"x%","maxUnavailable":-1}},"replicas":"3"}}`))
	f.Add([]byte(`{"metadata":{"name":"j","uid":"2","deletionTimestamp":"t","finalizers":["foregroundDeletion","orphan"]},"status":{"conditions":[1,{"type":"Complete","status":"True"}],"uncountedTerminatedPods":{"succeeded":"x"}}}`))
	f.Add([]byte(`{"metadata":{"name":"cj","uid":"3","creationTimestamp":"2026-01-01T00:00:00Z","labels":{"app":"web"}},"spec":{"schedule":"*/1 * * * *","timeZone":"UTC","concurrencyPolicy":"Replace","startingDeadlineSeconds":5,"successfulJobsHistoryLimit":-2,"selector":{"app":"web"},"ports":[{"port":80,"targetPort":"http"},{"port":"x"},1],"jobTemplate":{"spec":{}}},"status":{"active":[{"name":"j","uid":"2"},7],"lastScheduleTime":"x","podIP":"10.0.0.1","podIPs":[1,{"ip":"::1"}],"phase":"Running"}}`))
	f.Add([]byte(`{"metadata":{"managedFields":[1,{"time":"2026-01-01T00:00:00Z"}]},"spec":{"schedule":"0 0 30 2 *","selector":{},"clusterIP":"None"},"endpoints":[1],"ports":"x","eventTime":"2026-01-01T00:00:00.000000Z"}`))
	keys := []string{"/apps/deployments/default/web", "/apps/replicasets/default/web-1", "/apps/statefulsets/default/db",
		"/apps/daemonsets/default/ds", "/batch/jobs/default/j", "/core/pods/default/p", "/core/configmaps/default/c",
		"/batch/cronjobs/default/cj", "/core/services/default/web", "/core/endpoints/default/web",
		"/discovery.k8s.io/endpointslices/default/web-x", "/core/events/default/e", "/events.k8s.io/events/default/e", eventSweepKey}
	f.Fuzz(func(t *testing.T, b []byte) {
		st := store.New(store.Options{})
		for _, k := range keys {
			st.Update(k, func(*store.KV, store.Revision) (store.Op, error) { return store.PutOp(b), nil })
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		m := &Manager{api: okHandler{}, st: st, opts: Options{Now: time.Now, Nodes: 1}, ctx: ctx,
			cm: client{h: okHandler{}, ua: controllerManagerUA}, kubelet: client{h: okHandler{}, ua: kubeletUA},
			q: newQueue(), done: make(chan struct{}), retries: map[string]int{}}
		m.Resync()
		for _, k := range keys {
			_ = m.reconcile(k)
			m.handleEvent(store.Event{Type: store.Delete, KV: store.KV{Key: k, Value: b}})
		}
	})
}

// FuzzHelpers: the string parsers never panic and keep their invariants.
func FuzzHelpers(f *testing.F) {
	for _, s := range []string{"nginx", "a/b:1", "localhost:5000/x", "r.io/a/b@sha256:00", "/apps/deployments/ns/n", "25%", "", "//", "x%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n := normalizeImage(s); s != "" && n == "" {
			t.Fatalf("normalizeImage(%q) empty", s)
		}
		_ = imageID(normalizeImage(s))
		_, _, _, _, _ = parseKey(s)
		_ = scaledValue(s, 7, true)
		_ = safeEncodeString(s)
		if _, ok := ordinalOf("web", s); ok && len(s) < 5 {
			t.Fatalf("ordinalOf(%q)", s)
		}
	})
}
