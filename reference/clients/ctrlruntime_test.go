package clients

import (
	"context"
	"io"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// The envtest recipe of docs/clients.md with controller-runtime itself:
// envtest.Environment given the test mode's rest.Config
// (UseExistingCluster) installs a CRD into it, and a manager runs a
// controller that mirrors labelled ConfigMaps into Secrets, watching
// Secrets metadata-only (PartialObjectMetadata informers) — its cache,
// client and metadata watches against kubesandbox.
func TestControllerRuntimeManager(t *testing.T) {
	log.SetLogger(zap.New(zap.WriteTo(io.Discard))) // global: a test's t would outlive it
	_, cfg := envtestConfig(t)
	// the rest.Config as envtest hands it out (JSON by default;
	// controller-runtime picks protobuf for built-in types itself)
	cfg.ContentType = ""
	existing := true
	env := &envtest.Environment{UseExistingCluster: &existing, Config: cfg, CRDs: []*apiextensionsv1.CustomResourceDefinition{crWidgetCRD()}}
	if _, err := env.Start(); err != nil {
		t.Fatalf("envtest: %v", err)
	}
	t.Cleanup(func() { env.Stop() })

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0"})
	if err != nil {
		t.Fatal(err)
	}
	c := mgr.GetClient()
	err = builder.ControllerManagedBy(mgr).
		For(&corev1.ConfigMap{}).
		Owns(&corev1.Secret{}, builder.OnlyMetadata).
		WithOptions(controller.Options{SkipNameValidation: &existing}). // -count=N reuses the name
		Complete(mirror{c})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})

	direct, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: "default", Labels: map[string]string{"mirror": "yes"}},
		Data: map[string]string{"mode": "demo"}}
	if err := direct.Create(bg, cm); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the mirrored Secret", func() bool {
		var s corev1.Secret
		err := direct.Get(bg, types.NamespacedName{Namespace: "default", Name: "settings-mirror"}, &s)
		return err == nil && string(s.Data["mode"]) == "demo" && metav1.IsControlledBy(&s, cm)
	})
	// a change of the ConfigMap reaches the Secret
	cm.Data["mode"] = "live"
	if err := direct.Update(bg, cm); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the update mirrored", func() bool {
		var s corev1.Secret
		return direct.Get(bg, types.NamespacedName{Namespace: "default", Name: "settings-mirror"}, &s) == nil && string(s.Data["mode"]) == "live"
	})
	// (Deleting the Secret is not tested: the metadata-only watch that
	// enqueues the owner and the typed Secret cache CreateOrUpdate reads
	// are two watches, so the reconcile may still see the Secret and do
	// nothing — the same race as on a cluster, not the server's.)
	// the CRD envtest installed is served
	w := &unstructured.Unstructured{}
	w.SetGroupVersionKind(schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"})
	w.SetNamespace("default")
	w.SetName("w1")
	if err := direct.Create(bg, w); err != nil {
		t.Fatalf("widget: %v", err)
	}
}

// mirror copies a labelled ConfigMap's data into "<name>-mirror", a Secret
// the ConfigMap controls.
type mirror struct{ c client.Client }

func (m mirror) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var cm corev1.ConfigMap
	if err := m.c.Get(ctx, req.NamespacedName, &cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels["mirror"] != "yes" {
		return ctrl.Result{}, nil
	}
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: cm.Name + "-mirror", Namespace: cm.Namespace}}
	_, err := ctrl.CreateOrUpdate(ctx, m.c, s, func() error {
		s.Data = map[string][]byte{}
		for k, v := range cm.Data {
			s.Data[k] = []byte(v)
		}
		return ctrl.SetControllerReference(&cm, s, m.c.Scheme())
	})
	if apierrors.IsAlreadyExists(err) || apierrors.IsConflict(err) {
		return ctrl.Result{Requeue: true}, nil
	}
	return ctrl.Result{}, err
}

func crWidgetCRD() *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com", Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve}}}},
		},
	}
}

// waitFor polls cond until it holds (a generous deadline: the machine is
// shared).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
