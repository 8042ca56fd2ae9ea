package clients

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"
)

// What kubectl's auth commands print against the sandbox: an allow-all
// cluster that calls a request without a token system:anonymous.
func TestKubectlAuth(t *testing.T) {
	c := newCluster(t, apiserver.Options{})
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"whoami", []string{"auth", "whoami"}, []string{"ATTRIBUTE VALUE", "Username system:anonymous", `Groups \[system:unauthenticated\]`}},
		{"can-i create pods", []string{"auth", "can-i", "create", "pods"}, []string{"yes"}},
		{"can-i in another namespace", []string{"auth", "can-i", "delete", "deployments.apps", "-n", "kube-system"}, []string{"yes"}},
		{"can-i --list", []string{"auth", "can-i", "--list"}, []string{`Resources Non-Resource URLs Resource Names Verbs`, `\*\.\* \[\] \[\] \[\*\]`, `\s*\[\*\] \[\] \[\*\]`}},
		{"cluster facts", []string{"get", "namespaces"}, []string{`default Active \d+s`, `kube-system Active \d+s`, `kube-public Active \d+s`, `kube-node-lease Active \d+s`}},
		{"the kubernetes Service", []string{"get", "service", "kubernetes", "-n", "default"}, []string{`kubernetes ClusterIP 10.96.0.1 <none> 443/TCP \d+s`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantLines(t, c.mustKubectl(t, "", tc.args...), tc.want...)
		})
	}
	t.Run("delete namespace default", func(t *testing.T) {
		_, errOut, err := c.kubectl("", "delete", "namespace", "default")
		if err == nil {
			t.Fatal("no error")
		}
		wantLines(t, errOut, `Error from server \(Forbidden\): namespaces "default" is forbidden: this namespace may not be deleted`)
	})
	t.Run("typed client SubjectAccessReview", func(t *testing.T) {
		sar, err := c.clientset(t).AuthorizationV1().SubjectAccessReviews().Create(context.Background(), &authorizationv1.SubjectAccessReview{
			Spec: authorizationv1.SubjectAccessReviewSpec{User: "bob", ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: "get", Resource: "secrets"}},
		}, metav1.CreateOptions{})
		if err != nil || !sar.Status.Allowed {
			t.Fatalf("%v %+v", err, sar)
		}
	})
}

// client-go's metadata client and a metadata informer (what
// controller-runtime's metadata watches and the garbage collector use).
func TestMetadataClient(t *testing.T) {
	c := newCluster(t, apiserver.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mc, err := metadata.NewForConfig(c.restConfig())
	if err != nil {
		t.Fatal(err)
	}
	cms := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	cs := c.clientset(t)
	if _, err := cs.CoreV1().ConfigMaps("default").Create(ctx, cm("m1", map[string]string{"a": "b"}, map[string]string{"tier": "x"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Run("get", func(t *testing.T) {
		m, err := mc.Resource(cms).Namespace("default").Get(ctx, "m1", metav1.GetOptions{})
		if err != nil || m.Name != "m1" || m.Labels["tier"] != "x" || m.UID == "" {
			t.Fatalf("%v %+v", err, m)
		}
	})
	t.Run("list", func(t *testing.T) {
		l, err := mc.Resource(cms).Namespace("default").List(ctx, metav1.ListOptions{})
		if err != nil || len(l.Items) != 1 || l.Items[0].Name != "m1" {
			t.Fatalf("%v %+v", err, l)
		}
	})
	t.Run("informer", func(t *testing.T) {
		f := metadatainformer.NewSharedInformerFactory(mc, 0)
		inf := f.ForResource(cms).Informer()
		var mu sync.Mutex
		seen := map[string]bool{}
		inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
			if m, ok := obj.(*metav1.PartialObjectMetadata); ok {
				mu.Lock()
				seen[m.Name] = true
				mu.Unlock()
			}
		}})
		f.Start(ctx.Done())
		if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
			t.Fatal("no sync")
		}
		if _, err := cs.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "m2"}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		eventually(t, 10*time.Second, func() string {
			mu.Lock()
			defer mu.Unlock()
			if !seen["m1"] || !seen["m2"] {
				return "informer saw " + keys(seen)
			}
			return ""
		})
	})
}

func keys(m map[string]bool) string {
	s := ""
	for k := range m {
		s += k + " "
	}
	return s
}
