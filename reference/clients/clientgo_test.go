package clients

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/controllers"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
)

// event is what an informer handler saw.
type event struct {
	typ, name, value string
}

// recordConfigMaps registers handlers that log the ConfigMaps named with
// prefix.
func recordConfigMaps(t *testing.T, inf cache.SharedIndexInformer, prefix string) func() []event {
	var mu sync.Mutex
	var evs []event
	add := func(typ string, obj any) {
		if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		cm, ok := obj.(*corev1.ConfigMap)
		if !ok || !strings.HasPrefix(cm.Name, prefix) {
			return
		}
		mu.Lock()
		evs = append(evs, event{typ, cm.Name, cm.Data["v"]})
		mu.Unlock()
	}
	_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { add("add", obj) },
		UpdateFunc: func(_, obj any) { add("update", obj) },
		DeleteFunc: func(obj any) { add("delete", obj) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return func() []event {
		mu.Lock()
		defer mu.Unlock()
		return append([]event(nil), evs...)
	}
}

func startInformers(t *testing.T, f informers.SharedInformerFactory) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		f.Shutdown()
	})
	f.Start(ctx.Done())
	synced := make(chan struct{})
	go func() {
		f.WaitForCacheSync(ctx.Done())
		close(synced)
	}()
	select {
	case <-synced:
	case <-time.After(10 * time.Second):
		t.Fatal("informers did not sync")
	}
}

func cm(name string, data map[string]string, lbls map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: lbls}, Data: data}
}

// TestInformerEvents: a SharedInformerFactory syncs, then receives add,
// update and delete in order; it lists-and-watches with a streaming list
// (sendInitialEvents, bookmarks), and takes its resourceVersion from the
// initial-events-end bookmark.
func TestInformerEvents(t *testing.T) {
	c := newCluster(t, apiserver.Options{})
	cs := c.clientset(t)
	ctx := context.Background()
	// writes elsewhere move the store's revision past every ConfigMap's
	for i := range 3 {
		if _, err := cs.CoreV1().Secrets("default").Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("s%d", i)}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cs.CoreV1().ConfigMaps("default").Create(ctx, cm("ev-pre", map[string]string{"v": "0"}, nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	last, err := cs.CoreV1().Secrets("default").Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "last"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	f := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace("default"))
	inf := f.Core().V1().ConfigMaps().Informer()
	events := recordConfigMaps(t, inf, "ev-")
	startInformers(t, f)

	t.Run("streaming list with bookmarks", func(t *testing.T) {
		reqs := c.requests(func(r recorded) bool {
			return r.Path == "/api/v1/namespaces/default/configmaps" && r.Query.Get("watch") == "true"
		})
		if len(reqs) == 0 {
			t.Fatal("no watch request")
		}
		q := reqs[0].Query
		if q.Get("sendInitialEvents") != "true" || q.Get("allowWatchBookmarks") != "true" || q.Get("resourceVersionMatch") != "NotOlderThan" {
			t.Errorf("first watch %v: want a streaming list (sendInitialEvents=true, allowWatchBookmarks=true, resourceVersionMatch=NotOlderThan)", q)
		}
		// the initial-events-end bookmark carries the revision of the
		// snapshot, newer than any ConfigMap's
		if got := inf.LastSyncResourceVersion(); got != last.ResourceVersion {
			t.Errorf("LastSyncResourceVersion = %s, want the bookmark's %s", got, last.ResourceVersion)
		}
	})

	t.Run("add, update, delete", func(t *testing.T) {
		if _, err := cs.CoreV1().ConfigMaps("default").Create(ctx, cm("ev-a", map[string]string{"v": "1"}, nil), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := cs.CoreV1().ConfigMaps("default").Update(ctx, cm("ev-a", map[string]string{"v": "2"}, nil), metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := cs.CoreV1().ConfigMaps("default").Delete(ctx, "ev-a", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		want := []event{{"add", "ev-pre", "0"}, {"add", "ev-a", "1"}, {"update", "ev-a", "2"}, {"delete", "ev-a", "2"}}
		eventually(t, 5*time.Second, func() string {
			if got := events(); fmt.Sprint(got) != fmt.Sprint(want) {
				return fmt.Sprintf("events %v, want %v", got, want)
			}
			return ""
		})
		if _, ok, _ := inf.GetStore().GetByKey("default/ev-a"); ok {
			t.Error("deleted object still in the informer's store")
		}
	})
}

// TestInformerRelistsAfterExpiry: with a history window of 5 events, a
// watch that resumes after a burst of writes gets 410 Gone ("too old
// resource version"); the reflector relists and the informer converges.
func TestInformerRelistsAfterExpiry(t *testing.T) {
	c := newCluster(t, apiserver.Options{HistoryEvents: 5})
	cs := c.clientset(t)
	ctx := context.Background()
	for i := range 3 {
		if _, err := cs.CoreV1().ConfigMaps("default").Create(ctx, cm(fmt.Sprintf("x-%d", i), map[string]string{"v": "0"}, nil), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	f := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace("default"))
	inf := f.Core().V1().ConfigMaps().Informer()
	events := recordConfigMaps(t, inf, "x-")
	startInformers(t, f)
	oldRV := inf.LastSyncResourceVersion()

	release := c.gateWatches()
	// the burst: 20 writes while the informer cannot watch
	for i := 3; i < 13; i++ {
		if _, err := cs.CoreV1().ConfigMaps("default").Create(ctx, cm(fmt.Sprintf("x-%d", i), map[string]string{"v": "1"}, nil), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 5; i++ {
		if _, err := cs.CoreV1().ConfigMaps("default").Update(ctx, cm(fmt.Sprintf("x-%d", i), map[string]string{"v": "2"}, nil), metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 8; i < 13; i++ {
		if err := cs.CoreV1().ConfigMaps("default").Delete(ctx, fmt.Sprintf("x-%d", i), metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("the old resourceVersion is gone", func(t *testing.T) {
		// what the reflector's resumed watch gets, seen by a plain watcher
		req, _ := http.NewRequest("GET", c.URL+"/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true&resourceVersion="+oldRV, nil)
		req.Header.Set("X-Ungated", "1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var ev struct {
			Type   string
			Object metav1.Status
		}
		if err := json.NewDecoder(resp.Body).Decode(&ev); err != nil {
			t.Fatal(err)
		}
		st := ev.Object
		if resp.StatusCode != 200 || ev.Type != "ERROR" || st.Code != 410 || st.Reason != metav1.StatusReasonExpired || !strings.HasPrefix(st.Message, "too old resource version: "+oldRV+" (") {
			t.Errorf("%d, first event %s %+v; want ERROR 410 Expired too old resource version", resp.StatusCode, ev.Type, st)
		}
	})

	listsBefore := len(c.requests(isConfigMapListing))
	release()

	t.Run("relists and converges", func(t *testing.T) {
		server, err := cs.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for _, o := range server.Items {
			want[o.Name] = o.ResourceVersion
		}
		eventually(t, 15*time.Second, func() string {
			got := map[string]string{}
			for _, o := range inf.GetStore().List() {
				m := o.(*corev1.ConfigMap)
				got[m.Name] = m.ResourceVersion
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				return fmt.Sprintf("informer store %v, server %v", got, want)
			}
			return ""
		})
		if n := len(c.requests(isConfigMapListing)); n <= listsBefore {
			t.Errorf("no relist after the watch expired (%d listings before, %d after)", listsBefore, n)
		}
		// handlers saw the net effect: x-3..x-7 added, x-0..x-4 updated
		adds, updates := map[string]bool{}, map[string]bool{}
		for _, e := range events() {
			switch e.typ {
			case "add":
				adds[e.name] = true
			case "update":
				if e.value == "2" {
					updates[e.name] = true
				}
			}
		}
		for i := 3; i < 8; i++ {
			if !adds[fmt.Sprintf("x-%d", i)] {
				t.Errorf("no add for x-%d", i)
			}
		}
		for i := 0; i < 3; i++ {
			if !updates[fmt.Sprintf("x-%d", i)] {
				t.Errorf("no update to v=2 for x-%d", i)
			}
		}
	})
}

// isConfigMapListing matches a full list: a plain list, or a streaming
// list (watch with sendInitialEvents).
func isConfigMapListing(r recorded) bool {
	if r.Path != "/api/v1/namespaces/default/configmaps" || r.Method != "GET" {
		return false
	}
	return r.Query.Get("watch") != "true" || r.Query.Get("sendInitialEvents") == "true"
}

// labelCopier is a controller of a dozen lines: for every ConfigMap with
// a "team" label it makes data["team"] equal to the label.
func labelCopier(ctx context.Context, cs kubernetes.Interface, f informers.SharedInformerFactory) {
	inf := f.Core().V1().ConfigMaps()
	keys := make(chan string, 1000)
	enqueue := func(obj any) {
		if k, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
			keys <- k
		}
	}
	inf.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: enqueue, UpdateFunc: func(_, o any) { enqueue(o) }})
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case key := <-keys:
				ns, name, _ := cache.SplitMetaNamespaceKey(key)
				retry.RetryOnConflict(retry.DefaultRetry, func() error {
					cur, err := inf.Lister().ConfigMaps(ns).Get(name)
					team, ok := cur.GetLabels()["team"]
					if err != nil || !ok || cur.Data["team"] == team {
						return nil
					}
					next := cur.DeepCopy()
					if next.Data == nil {
						next.Data = map[string]string{}
					}
					next.Data["team"] = team
					_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, next, metav1.UpdateOptions{})
					return err
				})
			}
		}
	}()
}

func TestControllerConverges(t *testing.T) {
	c := newCluster(t, apiserver.Options{})
	cs := c.clientset(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := informers.NewSharedInformerFactory(cs, 0)
	labelCopier(ctx, cs, f)
	startInformers(t, f)

	for i := range 6 {
		if _, err := cs.CoreV1().ConfigMaps("default").Create(ctx, cm(fmt.Sprintf("team-%d", i), nil, map[string]string{"team": fmt.Sprintf("t%d", i%2)}), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	// relabel one while the controller may be writing it (a conflict is
	// retried on the informer's newer copy)
	patch := []byte(`{"metadata":{"labels":{"team":"blue"}}}`)
	if _, err := cs.CoreV1().ConfigMaps("default").Patch(ctx, "team-0", "application/merge-patch+json", patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, func() string {
		l, err := cs.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{LabelSelector: "team"})
		if err != nil {
			return err.Error()
		}
		var bad []string
		for _, o := range l.Items {
			if o.Data["team"] != o.Labels["team"] {
				bad = append(bad, o.Name+"="+o.Data["team"]+"/"+o.Labels["team"])
			}
		}
		if len(l.Items) != 6 || len(bad) > 0 {
			sort.Strings(bad)
			return fmt.Sprintf("%d objects, not converged: %v", len(l.Items), bad)
		}
		return ""
	})
}

// TestDeploymentInformer: a Deployment created through the API is rolled
// out by the in-process controllers; an informer watches its status reach
// the desired replicas and the Available condition.
func TestDeploymentInformer(t *testing.T) {
	c := newCluster(t, apiserver.Options{Controllers: controllers.Starter})
	cs := c.clientset(t)
	ctx := context.Background()
	f := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace("default"))
	dinf := f.Apps().V1().Deployments()
	pinf := f.Core().V1().Pods()
	dinf.Informer()
	pinf.Informer()
	startInformers(t, f)

	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](3),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
			},
		},
	}
	if _, err := cs.AppsV1().Deployments("default").Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 30*time.Second, func() string {
		got, err := dinf.Lister().Deployments("default").Get("web")
		if err != nil {
			return err.Error()
		}
		st := got.Status
		available := false
		for _, cond := range st.Conditions {
			if cond.Type == appsv1.DeploymentAvailable && cond.Status == corev1.ConditionTrue {
				available = true
			}
		}
		if st.ReadyReplicas != 3 || st.UpdatedReplicas != 3 || st.ObservedGeneration != got.Generation || !available {
			return fmt.Sprintf("status %+v", st)
		}
		pods, _ := pinf.Lister().Pods("default").List(labels.SelectorFromSet(labels.Set{"app": "web"}))
		running := 0
		for _, p := range pods {
			if p.Status.Phase == corev1.PodRunning {
				running++
			}
		}
		if running != 3 {
			return "running pods in the informer: " + strconv.Itoa(running)
		}
		return ""
	})
}
