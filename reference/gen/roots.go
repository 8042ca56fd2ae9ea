package gen

import (
	"reflect"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	// Keeps k8s.io/client-go in go.mod: its applyconfigurations/internal
	// package holds the apply schema we read (see smd.go).
	_ "k8s.io/client-go/applyconfigurations"
)

// Roots are the kinds whose schemas we ship; everything they reach is
// generated too.
func Roots() []reflect.Type {
	return []reflect.Type{
		reflect.TypeFor[corev1.Namespace](),
		reflect.TypeFor[corev1.ConfigMap](),
		reflect.TypeFor[corev1.Secret](),
		reflect.TypeFor[corev1.Pod](),
		reflect.TypeFor[corev1.Service](),
		reflect.TypeFor[corev1.ServiceAccount](),
		reflect.TypeFor[corev1.Event](),
		reflect.TypeFor[appsv1.Deployment](),
		reflect.TypeFor[appsv1.ReplicaSet](),
		reflect.TypeFor[appsv1.StatefulSet](),
		reflect.TypeFor[appsv1.DaemonSet](),
		reflect.TypeFor[batchv1.Job](),
		reflect.TypeFor[batchv1.CronJob](),
		reflect.TypeFor[apiextensionsv1.CustomResourceDefinition](),
		// The kinds a learner meets (issue 12, item 2).
		reflect.TypeFor[corev1.Endpoints](),
		reflect.TypeFor[corev1.Node](),
		reflect.TypeFor[corev1.LimitRange](),
		reflect.TypeFor[corev1.ResourceQuota](),
		reflect.TypeFor[corev1.PersistentVolumeClaim](),
		reflect.TypeFor[corev1.PersistentVolume](),
		reflect.TypeFor[eventsv1.Event](),
		reflect.TypeFor[discoveryv1.EndpointSlice](),
		reflect.TypeFor[coordinationv1.Lease](),
		reflect.TypeFor[storagev1.StorageClass](),
		reflect.TypeFor[networkingv1.Ingress](),
		reflect.TypeFor[networkingv1.IngressClass](),
		reflect.TypeFor[networkingv1.NetworkPolicy](),
		reflect.TypeFor[autoscalingv2.HorizontalPodAutoscaler](),
		// The missing served kinds (issue 12): ReplicationControllers and
		// autoscaling/v1's view of HorizontalPodAutoscalers.
		reflect.TypeFor[corev1.ReplicationController](),
		reflect.TypeFor[autoscalingv1.HorizontalPodAutoscaler](),
		reflect.TypeFor[policyv1.PodDisruptionBudget](),
		reflect.TypeFor[schedulingv1.PriorityClass](),
		reflect.TypeFor[appsv1.ControllerRevision](),
		reflect.TypeFor[rbacv1.Role](),
		reflect.TypeFor[rbacv1.ClusterRole](),
		reflect.TypeFor[rbacv1.RoleBinding](),
		reflect.TypeFor[rbacv1.ClusterRoleBinding](),
		reflect.TypeFor[autoscalingv1.Scale](),
		reflect.TypeFor[certificatesv1.CertificateSigningRequest](),
		// The last core/v1 kinds of issue 12.
		reflect.TypeFor[corev1.PodTemplate](),
		reflect.TypeFor[corev1.ComponentStatus](),
		// Admission policies (issue 19).
		reflect.TypeFor[admissionregistrationv1.ValidatingAdmissionPolicy](),
		reflect.TypeFor[admissionregistrationv1.ValidatingAdmissionPolicyBinding](),
		// The bodies of subresources (protobuf-encoded by typed clients).
		reflect.TypeFor[corev1.Binding](),
		reflect.TypeFor[policyv1.Eviction](),
		reflect.TypeFor[authenticationv1.TokenRequest](),
		// The review APIs (virtual: answered, never stored).
		reflect.TypeFor[authenticationv1.SelfSubjectReview](),
		reflect.TypeFor[authenticationv1.TokenReview](),
		reflect.TypeFor[authorizationv1.LocalSubjectAccessReview](),
		reflect.TypeFor[authorizationv1.SelfSubjectAccessReview](),
		reflect.TypeFor[authorizationv1.SelfSubjectRulesReview](),
		reflect.TypeFor[authorizationv1.SubjectAccessReview](),
		// The body of a DELETE (protobuf-encoded by typed clients).
		reflect.TypeFor[metav1.DeleteOptions](),
	}
}
