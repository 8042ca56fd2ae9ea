package clients

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/testserver"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	autoscalingv1ac "k8s.io/client-go/applyconfigurations/autoscaling/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

// The envtest recipe of docs/clients.md: testserver in its test mode
// (HTTPS, a token, no controllers) and client-go from its kubeconfig, the
// way a controller-runtime suite gets its rest.Config — here with the
// protobuf content type controller-runtime uses for built-ins.
func envtestConfig(t *testing.T) (*testserver.Server, *rest.Config) {
	t.Helper()
	srv := testserver.StartT(t, testserver.Options{})
	cfg, err := clientcmd.RESTConfigFromKubeConfig(srv.Kubeconfig())
	if err != nil {
		t.Fatal(err)
	}
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	cfg.QPS, cfg.Burst = 1000, 1000
	return srv, cfg
}

// mustOK returns v, and fails the test (a panic) on err.
func mustOK[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestEnvtestModeSubresources(t *testing.T) {
	_, cfg := envtestConfig(t)
	cs := mustOK(kubernetes.NewForConfig(cfg))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// an informer sees the evictions
	factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace("default"))
	deleted := make(chan string, 10)
	pods := factory.Core().V1().Pods().Informer()
	pods.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, o any) {
			if p := o.(*corev1.Pod); p.DeletionTimestamp != nil {
				deleted <- p.Name
			}
		},
		DeleteFunc: func(o any) {
			if p, ok := o.(*corev1.Pod); ok {
				deleted <- p.Name
			}
		},
	})
	factory.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), pods.HasSynced) {
		t.Fatal("no sync")
	}

	pod := func(name string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx"}}}}
	}
	for _, n := range []string{"a", "b"} {
		mustOK(cs.CoreV1().Pods("default").Create(ctx, pod(n), metav1.CreateOptions{}))
	}
	t.Run("Evict a pending pod", func(t *testing.T) {
		err := cs.PolicyV1().Evictions("default").Evict(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default"}})
		if err != nil {
			t.Fatal(err)
		}
		select {
		case n := <-deleted:
			if n != "a" {
				t.Errorf("informer saw %s go", n)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the informer saw no deletion")
		}
	})
	t.Run("Evict under a spent budget", func(t *testing.T) {
		// running and ready, as a kubelet would report it
		p := mustOK(cs.CoreV1().Pods("default").Get(ctx, "b", metav1.GetOptions{}))
		p.Status.Phase = corev1.PodRunning
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
		mustOK(cs.CoreV1().Pods("default").UpdateStatus(ctx, p, metav1.UpdateOptions{}))
		one := intstr.FromInt32(1)
		pdb := mustOK(cs.PolicyV1().PodDisruptionBudgets("default").Create(ctx, &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Name: "web"},
			Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: &one, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		}, metav1.CreateOptions{}))
		// no disruption controller runs in the test mode: the test writes
		// the status it would (a budget not yet observed answers 429 with
		// Retry-After 10, which client-go waits out ten times)
		pdb.Status = policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, CurrentHealthy: 1, DesiredHealthy: 1, ExpectedPods: 1}
		mustOK(cs.PolicyV1().PodDisruptionBudgets("default").UpdateStatus(ctx, pdb, metav1.UpdateOptions{}))
		err := cs.CoreV1().Pods("default").EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "default"}})
		if !apierrors.IsTooManyRequests(err) {
			t.Fatalf("want 429, got %v", err)
		}
		st := err.(apierrors.APIStatus).Status()
		if st.Message != "Cannot evict pod as it would violate the pod's disruption budget." || len(st.Details.Causes) != 1 ||
			st.Details.Causes[0].Type != policyv1.DisruptionBudgetCause ||
			st.Details.Causes[0].Message != "The disruption budget web needs 1 healthy pods and has 1 currently" {
			t.Errorf("%+v", st)
		}
	})
	t.Run("CreateToken and TokenReview", func(t *testing.T) {
		mustOK(cs.CoreV1().ServiceAccounts("default").Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "robot"}}, metav1.CreateOptions{}))
		tr := mustOK(cs.CoreV1().ServiceAccounts("default").CreateToken(ctx, "robot", &authenticationv1.TokenRequest{}, metav1.CreateOptions{}))
		if *tr.Spec.ExpirationSeconds != 3600 || tr.Status.Token == "" || tr.Status.ExpirationTimestamp.Sub(tr.CreationTimestamp.Time) != time.Hour {
			t.Fatalf("%+v", tr)
		}
		rv := mustOK(cs.AuthenticationV1().TokenReviews().Create(ctx, &authenticationv1.TokenReview{Spec: authenticationv1.TokenReviewSpec{Token: tr.Status.Token}}, metav1.CreateOptions{}))
		if !rv.Status.Authenticated || rv.Status.User.Username != "system:serviceaccount:default:robot" ||
			strings.Join(rv.Status.User.Groups, ",") != "system:serviceaccounts,system:serviceaccounts:default,system:authenticated" {
			t.Errorf("%+v", rv.Status)
		}
		// the token is a credential for this server
		sa := rest.AnonymousClientConfig(cfg)
		sa.BearerToken = tr.Status.Token
		if _, err := mustOK(kubernetes.NewForConfig(sa)).CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{}); err != nil {
			t.Errorf("service account token refused: %v", err)
		}
		// and names who the request is, as kube's service account authenticator does
		ssr, err := mustOK(kubernetes.NewForConfig(sa)).AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		if err != nil || !reflect.DeepEqual(ssr.Status.UserInfo, rv.Status.User) {
			t.Errorf("whoami with the token: %v %+v, want %+v", err, ssr, rv.Status.User)
		}
		_, err = cs.CoreV1().ServiceAccounts("default").CreateToken(ctx, "robot", &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptrTo[int64](60)}}, metav1.CreateOptions{})
		if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes") {
			t.Errorf("60 s: %v", err)
		}
	})
	t.Run("no token", func(t *testing.T) {
		_, err := mustOK(kubernetes.NewForConfig(rest.AnonymousClientConfig(cfg))).CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
		if !apierrors.IsUnauthorized(err) {
			t.Errorf("want 401, got %v", err)
		}
	})
	t.Run("CSR approval", func(t *testing.T) {
		csrs := cs.CertificatesV1().CertificateSigningRequests()
		created := mustOK(csrs.Create(ctx, &certificatesv1.CertificateSigningRequest{
			ObjectMeta: metav1.ObjectMeta{Name: "jane"},
			Spec: certificatesv1.CertificateSigningRequestSpec{Request: csrPEM(t), SignerName: certificatesv1.KubeAPIServerClientSignerName,
				Usages: []certificatesv1.KeyUsage{certificatesv1.UsageClientAuth}},
		}, metav1.CreateOptions{}))
		created.Status.Conditions = append(created.Status.Conditions, certificatesv1.CertificateSigningRequestCondition{
			Type: certificatesv1.CertificateApproved, Status: corev1.ConditionTrue, Reason: "Test", Message: "approved by a test"})
		approved := mustOK(csrs.UpdateApproval(ctx, "jane", created, metav1.UpdateOptions{}))
		if len(approved.Status.Conditions) != 1 || approved.Status.Conditions[0].LastUpdateTime.IsZero() || approved.Spec.Username != "admin" {
			t.Errorf("%+v", approved.Status)
		}
		approved.Status.Conditions = nil
		if _, err := csrs.UpdateApproval(ctx, "jane", approved, metav1.UpdateOptions{}); !apierrors.IsInvalid(err) {
			t.Errorf("removing the approval: %v", err)
		}
	})
	t.Run("ApplyScale and ApplyStatus", func(t *testing.T) {
		deps := cs.AppsV1().Deployments("default")
		two := int32(2)
		mustOK(deps.Create(ctx, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: appsv1.DeploymentSpec{
			Replicas: &two, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: pod("x").Spec},
		}}, metav1.CreateOptions{FieldManager: "test"}))
		sc := mustOK(deps.ApplyScale(ctx, "web", autoscalingv1ac.Scale().WithSpec(autoscalingv1ac.ScaleSpec().WithReplicas(5)),
			metav1.ApplyOptions{FieldManager: "autoscaler", Force: true}))
		if sc.Spec.Replicas != 5 {
			t.Errorf("scale %+v", sc)
		}
		st := mustOK(deps.ApplyStatus(ctx, appsv1ac.Deployment("web", "default").WithStatus(appsv1ac.DeploymentStatus().WithReplicas(5).WithObservedGeneration(2)),
			metav1.ApplyOptions{FieldManager: "status-writer"}))
		if *st.Spec.Replicas != 5 || st.Status.Replicas != 5 {
			t.Errorf("deployment %+v %+v", st.Spec, st.Status)
		}
		var subs []string
		for _, e := range st.ManagedFields {
			subs = append(subs, e.Manager+"/"+string(e.Operation)+"/"+e.Subresource)
		}
		if got := strings.Join(subs, ","); got != "autoscaler/Apply/scale,status-writer/Apply/status,test/Update/" {
			t.Errorf("managers %s", got)
		}
	})
}

// The test mode's kubeconfig token is envtest's admin user ("admin" in
// system:masters, plus system:authenticated), for client-go's review APIs,
// for kubectl, and in what the server records (a CSR's requester above).
func TestEnvtestModeIdentity(t *testing.T) {
	srv, cfg := envtestConfig(t)
	cs := mustOK(kubernetes.NewForConfig(cfg))
	ctx := context.Background()
	admin := authenticationv1.UserInfo{Username: "admin", Groups: []string{"system:masters", "system:authenticated"}}
	t.Run("SelfSubjectReview", func(t *testing.T) {
		ssr := mustOK(cs.AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{}))
		if !reflect.DeepEqual(ssr.Status.UserInfo, admin) {
			t.Errorf("%+v, want %+v", ssr.Status.UserInfo, admin)
		}
	})
	t.Run("SelfSubjectAccessReview", func(t *testing.T) {
		r := mustOK(cs.AuthorizationV1().SelfSubjectAccessReviews().Create(ctx, &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{Namespace: "default", Verb: "create", Resource: "pods"}}}, metav1.CreateOptions{}))
		if !r.Status.Allowed {
			t.Errorf("%+v", r.Status)
		}
	})
	t.Run("impersonation", func(t *testing.T) {
		as := rest.CopyConfig(cfg)
		as.Impersonate = rest.ImpersonationConfig{UserName: "jane", Groups: []string{"devs"}, UID: "u1", Extra: map[string][]string{"scopes": {"view"}}}
		ssr := mustOK(mustOK(kubernetes.NewForConfig(as)).AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{}))
		want := authenticationv1.UserInfo{Username: "jane", UID: "u1", Groups: []string{"devs", "system:authenticated"}, Extra: map[string]authenticationv1.ExtraValue{"scopes": {"view"}}}
		if !reflect.DeepEqual(ssr.Status.UserInfo, want) {
			t.Errorf("%+v, want %+v", ssr.Status.UserInfo, want)
		}
	})
	t.Run("a token the server did not issue is 401", func(t *testing.T) {
		other := rest.AnonymousClientConfig(cfg)
		other.BearerToken = "not-" + srv.Token
		_, err := mustOK(kubernetes.NewForConfig(other)).AuthenticationV1().SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
		if !apierrors.IsUnauthorized(err) {
			t.Errorf("want 401, got %v", err)
		}
	})
	dir := t.TempDir()
	c := &cluster{kubeconfig: filepath.Join(dir, "kubeconfig"), cacheDir: filepath.Join(dir, "cache")}
	if err := os.WriteFile(c.kubeconfig, srv.Kubeconfig(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"kubectl auth whoami", []string{"auth", "whoami"}, []string{"ATTRIBUTE VALUE", "Username admin", `Groups \[system:masters system:authenticated\]`}},
		{"kubectl auth can-i create pods", []string{"auth", "can-i", "create", "pods"}, []string{"yes"}},
		{"kubectl auth whoami --as", []string{"auth", "whoami", "--as", "system:serviceaccount:default:robot"},
			[]string{"ATTRIBUTE VALUE", "Username system:serviceaccount:default:robot", `Groups \[system:serviceaccounts system:serviceaccounts:default system:authenticated\]`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantLines(t, c.mustKubectl(t, "", tc.args...), tc.want...)
		})
	}
}

func ptrTo[T any](v T) *T { return &v }

func csrPEM(t *testing.T) []byte {
	key := mustOK(ecdsa.GenerateKey(elliptic.P256(), rand.Reader))
	der := mustOK(x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: "jane"}}, key))
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
}
