package clients

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
)

const protobufType = "application/vnd.kubernetes.protobuf"

// contentTypes records the Content-Type of every response a client got.
type contentTypes struct {
	mu   sync.Mutex
	seen map[string]string // "GET /api/v1/..." -> Content-Type
}

func (c *contentTypes) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(r)
		if err == nil {
			c.mu.Lock()
			c.seen[r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery] = resp.Header.Get("Content-Type")
			c.mu.Unlock()
		}
		return resp, err
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// protobufConfig is a client configured as kube components configure
// theirs: protobuf bodies, protobuf preferred in answers.
func protobufConfig(c *cluster, ct *contentTypes) *rest.Config {
	cfg := c.restConfig()
	cfg.ContentType = protobufType
	cfg.AcceptContentTypes = protobufType + ",application/json"
	cfg.WrapTransport = ct.wrap
	return cfg
}

// TestTypedClientProtobuf runs client-go's typed clients with protobuf
// bodies and answers: create, get, list, update, status, scale, watch,
// delete and errors, and checks that the answers were protobuf and decode
// to the same objects the JSON answers give.
func TestTypedClientProtobuf(t *testing.T) {
	c := newCluster(t, apiserver.Options{})
	ct := &contentTypes{seen: map[string]string{}}
	pb := kubernetes.NewForConfigOrDie(protobufConfig(c, ct))
	js := kubernetes.NewForConfigOrDie(c.restConfig())
	ctx := context.Background()

	w, err := pb.CoreV1().ConfigMaps("default").Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	cm, err := pb.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "pb", Labels: map[string]string{"a": "b"}},
		Data:       map[string]string{"k": "v"}, BinaryData: map[string][]byte{"bin": {0, 1, 0xff}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("get equals the JSON answer", func(t *testing.T) {
		got, err := pb.CoreV1().ConfigMaps("default").Get(ctx, "pb", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := js.CoreV1().ConfigMaps("default").Get(ctx, "pb", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(cm, want) {
			t.Errorf("protobuf get %+v\ncreate %+v\nJSON get %+v", got, cm, want)
		}
	})
	t.Run("update and list", func(t *testing.T) {
		cm.Data["k"] = "v2"
		if _, err := pb.CoreV1().ConfigMaps("default").Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		l, err := pb.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{LabelSelector: "a=b"})
		if err != nil {
			t.Fatal(err)
		}
		jl, err := js.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{LabelSelector: "a=b"})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 1 || l.Items[0].Data["k"] != "v2" || !reflect.DeepEqual(l.Items, jl.Items) || l.ResourceVersion != jl.ResourceVersion {
			t.Errorf("list %+v, JSON list %+v", l, jl)
		}
	})
	t.Run("watch", func(t *testing.T) {
		var got []string
		deadline := time.After(10 * time.Second)
		for len(got) < 2 {
			select {
			case ev := <-w.ResultChan():
				if ev.Type == watch.Error {
					t.Fatalf("watch error %v", ev.Object)
				}
				got = append(got, string(ev.Type)+" "+ev.Object.(*corev1.ConfigMap).Data["k"])
			case <-deadline:
				t.Fatalf("events %v", got)
			}
		}
		if !reflect.DeepEqual(got, []string{"ADDED v", "MODIFIED v2"}) {
			t.Errorf("events %v", got)
		}
	})
	t.Run("errors are Status", func(t *testing.T) {
		_, err := pb.CoreV1().ConfigMaps("default").Get(ctx, "nope", metav1.GetOptions{})
		if !apierrors.IsNotFound(err) || err.Error() != `configmaps "nope" not found` {
			t.Errorf("err = %v", err)
		}
		_, err = pb.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "pb"}}, metav1.CreateOptions{})
		if !apierrors.IsAlreadyExists(err) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("pod with status", func(t *testing.T) {
		pod, err := pb.CoreV1().Pods("default").Create(ctx, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "p"},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx",
				Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{"cpu": resource.MustParse("500m")}}}}},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pod.Status.Phase = corev1.PodRunning
		pod.Status.StartTime = ptr.To(metav1.NewTime(time.Unix(1700000000, 0)))
		got, err := pb.CoreV1().Pods("default").UpdateStatus(ctx, pod, metav1.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := js.CoreV1().Pods("default").Get(ctx, "p", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Status.Phase != corev1.PodRunning || !reflect.DeepEqual(got, want) {
			t.Errorf("protobuf %+v\nJSON %+v", got, want)
		}
	})
	t.Run("binding", func(t *testing.T) {
		err := pb.CoreV1().Pods("default").Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "p"},
			Target: corev1.ObjectReference{Kind: "Node", Name: "node-1"}}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := js.CoreV1().Pods("default").Get(ctx, "p", metav1.GetOptions{})
		if err != nil || p.Spec.NodeName != "node-1" {
			t.Errorf("%v %q", err, p.Spec.NodeName)
		}
		err = pb.CoreV1().Pods("default").Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "p"},
			Target: corev1.ObjectReference{Kind: "Node", Name: "node-2"}}, metav1.CreateOptions{})
		if !apierrors.IsConflict(err) {
			t.Errorf("second binding: %v", err)
		}
	})
	t.Run("scale", func(t *testing.T) {
		_, err := pb.AppsV1().Deployments("default").Create(ctx, &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: "d"},
			Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](1),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "d"}},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "d"}},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}}},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sc, err := pb.AppsV1().Deployments("default").GetScale(ctx, "d", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sc.Spec.Replicas = 4
		got, err := pb.AppsV1().Deployments("default").UpdateScale(ctx, "d", sc, metav1.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d, err := js.AppsV1().Deployments("default").Get(ctx, "d", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Spec.Replicas != 4 || *d.Spec.Replicas != 4 || got.Status.Selector != "app=d" {
			t.Errorf("scale %+v, deployment replicas %d", got, *d.Spec.Replicas)
		}
		_, err = pb.AppsV1().Deployments("default").UpdateScale(ctx, "d", &autoscalingv1.Scale{
			ObjectMeta: metav1.ObjectMeta{Name: "d"}, Spec: autoscalingv1.ScaleSpec{Replicas: -1}}, metav1.UpdateOptions{})
		if !apierrors.IsInvalid(err) {
			t.Errorf("negative replicas: %v", err)
		}
	})
	t.Run("metadata client", func(t *testing.T) {
		mc := metadata.NewForConfigOrDie(protobufConfig(c, ct))
		l, err := mc.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default").List(ctx, metav1.ListOptions{LabelSelector: "a=b"})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 1 || l.Items[0].Name != "pb" || l.Items[0].Labels["a"] != "b" {
			t.Errorf("list %+v", l)
		}
	})
	t.Run("delete", func(t *testing.T) {
		if err := pb.CoreV1().ConfigMaps("default").Delete(ctx, "pb", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	})

	ct.mu.Lock()
	defer ct.mu.Unlock()
	for req, typ := range ct.seen {
		want := protobufType
		if strings.Contains(req, "watch=true") {
			want += ";stream=watch"
		}
		if typ != want {
			t.Errorf("%s: Content-Type %q, want %q", req, typ, want)
		}
	}
	if len(ct.seen) < 10 {
		t.Errorf("only %d requests recorded: %v", len(ct.seen), ct.seen)
	}
}

// TestInformerProtobuf: a SharedInformerFactory over a protobuf clientset
// (its streaming list: initial events closed by the initial-events-end
// bookmark, both in protobuf frames) syncs and sees later writes.
func TestInformerProtobuf(t *testing.T) {
	c := newCluster(t, apiserver.Options{})
	ct := &contentTypes{seen: map[string]string{}}
	pb := kubernetes.NewForConfigOrDie(protobufConfig(c, ct))
	ctx := context.Background()
	pre, err := pb.CoreV1().ConfigMaps("default").Create(ctx, cm("pb-pre", map[string]string{"v": "0"}, nil), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := informers.NewSharedInformerFactoryWithOptions(pb, 0, informers.WithNamespace("default"))
	inf := f.Core().V1().ConfigMaps().Informer()
	events := recordConfigMaps(t, inf, "pb-")
	startInformers(t, f)
	if got := inf.LastSyncResourceVersion(); got != pre.ResourceVersion {
		t.Errorf("LastSyncResourceVersion = %s, want the bookmark's %s", got, pre.ResourceVersion)
	}
	if _, err := pb.CoreV1().ConfigMaps("default").Create(ctx, cm("pb-a", map[string]string{"v": "1"}, nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	want := []event{{"add", "pb-pre", "0"}, {"add", "pb-a", "1"}}
	eventually(t, 5*time.Second, func() string {
		if got := events(); fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Sprintf("events %v, want %v", got, want)
		}
		return ""
	})
	ct.mu.Lock()
	defer ct.mu.Unlock()
	watches := 0
	for req, typ := range ct.seen {
		if strings.Contains(req, "watch=true") {
			watches++
			if typ != protobufType+";stream=watch" {
				t.Errorf("%s: Content-Type %q", req, typ)
			}
		}
	}
	if watches == 0 {
		t.Errorf("no watch seen: %v", ct.seen)
	}
}
