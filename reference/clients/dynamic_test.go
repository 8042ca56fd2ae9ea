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
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
)

var widgets = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

func widgetCRD() *apiextensionsv1.CustomResourceDefinition {
	sch := &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
				"color":    {Type: "string", Default: &apiextensionsv1.JSON{Raw: []byte(`"blue"`)}},
				"replicas": {Type: "integer"},
			}},
			"status": {Type: "object", XPreserveUnknownFields: ptr.To(true)},
		},
	}}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList", ShortNames: []string{"wdg"}},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1", Served: true, Storage: true, Schema: sch,
					Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}}},
				{Name: "v1beta1", Served: true, Storage: false, Schema: sch, Deprecated: true},
			},
		},
	}
}

func createWidgetCRD(t *testing.T, c *cluster) {
	t.Helper()
	cfg := c.restConfig()
	cfg.ContentType = "application/json"
	ac, err := apiextensionsclient.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := ac.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, widgetCRD(), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, func() string {
		crd, err := ac.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, "widgets.example.com", metav1.GetOptions{})
		if err != nil {
			return err.Error()
		}
		for _, cond := range crd.Status.Conditions {
			if cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue {
				return ""
			}
		}
		return "not Established"
	})
}

// TestCRDClientsetProtobuf: the apiextensions clientset (as operators use
// it) sends CustomResourceDefinitions as protobuf by default; configured
// as kube components are, it also reads them as protobuf. The schema
// comes back as sent, the same as through JSON.
func TestCRDClientsetProtobuf(t *testing.T) {
	c := newCluster(t, apiserver.Options{})
	ac, err := apiextensionsclient.NewForConfig(c.restConfig())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	created, err := ac.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, widgetCRD(), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ct := &contentTypes{seen: map[string]string{}}
	pb, err := apiextensionsclient.NewForConfig(protobufConfig(c, ct))
	if err != nil {
		t.Fatal(err)
	}
	got, err := pb.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, "widgets.example.com", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	js := c.restConfig()
	js.ContentType = "application/json"
	jc, err := apiextensionsclient.NewForConfig(js)
	if err != nil {
		t.Fatal(err)
	}
	want, err := jc.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, "widgets.example.com", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Spec, want.Spec) || !reflect.DeepEqual(created.Spec.Versions[0].Schema, widgetCRD().Spec.Versions[0].Schema) {
		t.Errorf("protobuf %+v\nJSON %+v", got.Spec, want.Spec)
	}
	for req, typ := range ct.seen {
		if typ != protobufType {
			t.Errorf("%s: Content-Type %q", req, typ)
		}
	}
}

func widget(name, color string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"replicas": int64(1)},
	}}
	if color != "" {
		unstructured.SetNestedField(u.Object, color, "spec", "color")
	}
	return u
}

// TestDynamicClientCRD: a CRD created with the apiextensions clientset,
// then its custom resources through the dynamic client: create (with
// schema defaulting), get, list, merge patch, server-side apply, status,
// delete, and a dynamic informer.
func TestDynamicClientCRD(t *testing.T) {
	c := newCluster(t, apiserver.Options{})
	createWidgetCRD(t, c)
	dc := c.dynamic(t)
	ctx := context.Background()
	ri := dc.Resource(widgets).Namespace("default")

	f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(dc, 0, "default", nil)
	inf := f.ForResource(widgets).Informer()
	var mu sync.Mutex
	var seen []string
	inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(o any) {
			mu.Lock()
			seen = append(seen, "add "+o.(*unstructured.Unstructured).GetName())
			mu.Unlock()
		},
		UpdateFunc: func(_, o any) {
			mu.Lock()
			seen = append(seen, "update "+o.(*unstructured.Unstructured).GetName())
			mu.Unlock()
		},
		DeleteFunc: func(o any) {
			if d, ok := o.(cache.DeletedFinalStateUnknown); ok {
				o = d.Obj
			}
			mu.Lock()
			seen = append(seen, "delete "+o.(*unstructured.Unstructured).GetName())
			mu.Unlock()
		},
	})
	stop := make(chan struct{})
	defer close(stop)
	f.Start(stop)
	f.WaitForCacheSync(stop)

	created, err := ri.Create(ctx, widget("w1", ""), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if color, _, _ := unstructured.NestedString(created.Object, "spec", "color"); color != "blue" {
		t.Errorf("defaulted color = %q", color)
	}
	if _, err := ri.Create(ctx, widget("w1", ""), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) || err.Error() != `widgets.example.com "w1" already exists` {
		t.Errorf("second create: %v", err)
	}
	if _, err := ri.Get(ctx, "nope", metav1.GetOptions{}); !apierrors.IsNotFound(err) || err.Error() != `widgets.example.com "nope" not found` {
		t.Errorf("get missing: %v", err)
	}
	if _, err := ri.Patch(ctx, "w1", types.MergePatchType, []byte(`{"spec":{"replicas":3}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	applied, err := ri.Apply(ctx, "w1", widget("w1", "red"), metav1.ApplyOptions{FieldManager: "tester", Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if color, _, _ := unstructured.NestedString(applied.Object, "spec", "color"); color != "red" {
		t.Errorf("applied color = %q", color)
	}
	// without force, the field owned by "tester" conflicts
	other := widget("w1", "green")
	_, err = ri.Apply(ctx, "w1", other, metav1.ApplyOptions{FieldManager: "other"})
	if !apierrors.IsConflict(err) || err.Error() != `Apply failed with 1 conflict: conflict with "tester": .spec.color` {
		t.Errorf("conflicting apply: %v", err)
	}
	withStatus := applied.DeepCopy()
	unstructured.SetNestedField(withStatus.Object, "Ready", "status", "phase")
	if _, err := ri.UpdateStatus(ctx, withStatus, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	list, err := dc.Resource(widgets).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.GetKind() != "WidgetList" {
		t.Errorf("list: kind %s, %d items", list.GetKind(), len(list.Items))
	}
	got := list.Items[0]
	phase, _, _ := unstructured.NestedString(got.Object, "status", "phase")
	replicas, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas")
	if phase != "Ready" || replicas != 1 {
		// the apply set replicas back to 1 (tester's forced apply owns it)
		t.Errorf("object: phase %q replicas %d", phase, replicas)
	}
	if err := ri.Delete(ctx, "w1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, func() string {
		mu.Lock()
		defer mu.Unlock()
		s := strings.Join(seen, ",")
		if !strings.HasPrefix(s, "add w1,update w1") || !strings.HasSuffix(s, "delete w1") {
			return "informer saw " + s
		}
		return ""
	})
}

// warningRecorder collects the Warning headers client-go hands to its
// WarningHandler.
type warningRecorder struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warningRecorder) HandleWarningHeader(code int, agent, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, fmt.Sprintf("%d %s %s", code, agent, text))
}

func (w *warningRecorder) get() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.msgs...)
}

// TestDeprecatedAndRemovedAPIs: removed built-in versions answer the real
// 404 "404 page not found", with our Warning naming the replacement; a
// CRD version marked deprecated warns with apiextensions' default text,
// which client-go hands to its WarningHandler and kubectl prints.
func TestDeprecatedAndRemovedAPIs(t *testing.T) {
	c := newCluster(t, apiserver.Options{})
	createWidgetCRD(t, c)

	resp, err := http.Get(c.URL + "/apis/apps/v1beta1/namespaces/default/deployments")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Warning") == "" {
		t.Skip("addAPIWarnings is not yet wired into core/apiserver's serveResource")
	}

	rec := &warningRecorder{}
	cfg := c.restConfig()
	cfg.WarningHandler = rec
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	tests := []struct {
		name    string
		gvr     schema.GroupVersionResource
		warning string
	}{
		{"extensions/v1beta1 deployments", schema.GroupVersionResource{Group: "extensions", Version: "v1beta1", Resource: "deployments"},
			`299 - "extensions/v1beta1 Deployment is removed since v1.16; use apps/v1 Deployment"`},
		{"apps/v1beta2 statefulsets", schema.GroupVersionResource{Group: "apps", Version: "v1beta2", Resource: "statefulsets"},
			`299 - "apps/v1beta2 StatefulSet is removed since v1.16; use apps/v1 StatefulSet"`},
		{"batch/v1beta1 cronjobs", schema.GroupVersionResource{Group: "batch", Version: "v1beta1", Resource: "cronjobs"},
			`299 - "batch/v1beta1 CronJob is removed since v1.25; use batch/v1 CronJob"`},
		{"policy/v1beta1 podsecuritypolicies", schema.GroupVersionResource{Group: "policy", Version: "v1beta1", Resource: "podsecuritypolicies"},
			`299 - "policy/v1beta1 PodSecurityPolicy is removed since v1.25"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec.mu.Lock()
			rec.msgs = nil
			rec.mu.Unlock()
			_, err := dc.Resource(tt.gvr).Namespace("default").List(ctx, metav1.ListOptions{})
			// client-go's text for a 404 whose body is not a Status
			if !apierrors.IsNotFound(err) || err.Error() != "the server could not find the requested resource" {
				t.Errorf("list: %v", err)
			}
			// client-go hands no warnings of a text/plain error response to
			// its handler (rest.Request.transformResponse): the hint is for
			// raw HTTP users (curl -i, the browser's network panel)
			if got := rec.get(); len(got) != 0 {
				t.Errorf("client-go reported warnings %q", got)
			}
			resp, err := http.Get(c.URL + "/apis/" + tt.gvr.Group + "/" + tt.gvr.Version + "/namespaces/default/" + tt.gvr.Resource)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if got := resp.Header.Values("Warning"); len(got) != 1 || got[0] != tt.warning {
				t.Errorf("Warning %q, want %q", got, tt.warning)
			}
		})
	}

	t.Run("the 404 itself is the real one", func(t *testing.T) {
		resp, err := http.Get(c.URL + "/apis/batch/v1beta1/namespaces/default/cronjobs")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		buf := make([]byte, 100)
		n, _ := resp.Body.Read(buf)
		if resp.StatusCode != 404 || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" || string(buf[:n]) != "404 page not found\n" {
			t.Errorf("%d %s %q", resp.StatusCode, resp.Header.Get("Content-Type"), buf[:n])
		}
	})

	t.Run("deprecated CRD version", func(t *testing.T) {
		rec.mu.Lock()
		rec.msgs = nil
		rec.mu.Unlock()
		v1beta1 := schema.GroupVersionResource{Group: "example.com", Version: "v1beta1", Resource: "widgets"}
		w := widget("old", "")
		w.SetAPIVersion("example.com/v1beta1")
		if _, err := dc.Resource(v1beta1).Namespace("default").Create(ctx, w, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if got := rec.get(); len(got) != 1 || got[0] != "299 - example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget" {
			t.Errorf("warnings %q", got)
		}
		rec.mu.Lock()
		rec.msgs = nil
		rec.mu.Unlock()
		if _, err := dc.Resource(widgets).Namespace("default").Get(ctx, "old", metav1.GetOptions{}); err != nil {
			t.Fatal(err)
		}
		if got := rec.get(); len(got) != 0 {
			t.Errorf("v1 is not deprecated, got warnings %q", got)
		}
	})

	t.Run("kubectl prints the warning", func(t *testing.T) {
		_, errOut, err := c.kubectl("", "get", "--raw", "/apis/example.com/v1beta1/namespaces/default/widgets/old")
		if err != nil {
			t.Fatal(err)
		}
		wantLines(t, errOut, "Warning: example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget")
	})
}
