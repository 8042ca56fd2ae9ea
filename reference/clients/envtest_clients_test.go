package clients

import (
	"context"
	"sync"
	"testing"
	"time"

	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"
)

// The test mode (testserver: HTTPS, the kubeconfig's token, no
// controllers, protobuf for built-ins) with the clients a controller
// project's suite uses besides the typed one: the apiextensions clientset
// installs a CRD, the dynamic client and a dynamic informer work on its
// custom resources, the metadata client and a metadata informer
// (PartialObjectMetadata, as controller-runtime's metadata watches) see
// both custom resources and a built-in kind.
func TestEnvtestModeDynamicAndMetadata(t *testing.T) {
	_, cfg := envtestConfig(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ac := mustOK(apiextensionsclient.NewForConfig(cfg))
	mustOK(ac.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, widgetCRD(), metav1.CreateOptions{}))
	widgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	secrets := schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	dc := mustOK(dynamic.NewForConfig(cfg))
	mc := mustOK(metadata.NewForConfig(cfg))

	// informers first: each must see what is created after it synced
	var mu sync.Mutex
	seen := map[string]bool{}
	note := func(prefix string) cache.ResourceEventHandlerFuncs {
		return cache.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
			if m, err := meta(obj); err == nil {
				mu.Lock()
				seen[prefix+m] = true
				mu.Unlock()
			}
		}}
	}
	df := dynamicinformer.NewFilteredDynamicSharedInformerFactory(dc, 0, "default", nil)
	mf := metadatainformer.NewFilteredSharedInformerFactory(mc, 0, "default", nil)
	infs := []cache.SharedIndexInformer{df.ForResource(widgets).Informer(), mf.ForResource(widgets).Informer(), mf.ForResource(secrets).Informer()}
	for i, p := range []string{"dynamic/", "metadata/", "metadata/"} {
		mustOK(infs[i].AddEventHandler(note(p)))
	}
	df.Start(ctx.Done())
	mf.Start(ctx.Done())
	for _, inf := range infs {
		if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
			t.Fatal("no sync")
		}
	}

	t.Run("dynamic create and get", func(t *testing.T) {
		mustOK(dc.Resource(widgets).Namespace("default").Create(ctx, widget("w1", "red"), metav1.CreateOptions{}))
		got := mustOK(dc.Resource(widgets).Namespace("default").Get(ctx, "w1", metav1.GetOptions{}))
		if got.GetUID() == "" || got.Object["spec"].(map[string]any)["color"] != "red" {
			t.Fatalf("%+v", got.Object)
		}
	})
	t.Run("metadata get of a custom resource", func(t *testing.T) {
		m := mustOK(mc.Resource(widgets).Namespace("default").Get(ctx, "w1", metav1.GetOptions{}))
		if m.Name != "w1" || m.UID == "" || len(m.ManagedFields) != 1 {
			t.Fatalf("%+v", m)
		}
	})
	t.Run("metadata list of a built-in", func(t *testing.T) {
		mustOK(dc.Resource(secrets).Namespace("default").Create(ctx, secretObj("s1"), metav1.CreateOptions{}))
		l := mustOK(mc.Resource(secrets).Namespace("default").List(ctx, metav1.ListOptions{}))
		if len(l.Items) != 1 || l.Items[0].Name != "s1" || l.ResourceVersion == "" {
			t.Fatalf("%+v", l)
		}
	})
	t.Run("informers saw them", func(t *testing.T) {
		eventually(t, 30*time.Second, func() string {
			mu.Lock()
			defer mu.Unlock()
			if !seen["dynamic/w1"] || !seen["metadata/w1"] || !seen["metadata/s1"] {
				return "informers saw " + keys(seen)
			}
			return ""
		})
	})
}

// meta is the name of an informer's object (unstructured or
// PartialObjectMetadata).
func meta(obj any) (string, error) {
	m, err := apimeta.Accessor(obj)
	if err != nil {
		return "", err
	}
	return m.GetName(), nil
}

func secretObj(name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": name},
		"stringData": map[string]any{"k": "v"},
	}}
}
