package apiserver

import (
	"bytes"
	"fmt"
	"github.com/kubesandbox/kubesandbox/core/openapi"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// Deprecated and removed API versions.
//
// A real kube-apiserver answers a request for a deprecated-but-served API
// with a Warning header (RFC 7234 §5.5), text from the type's
// prerelease-lifecycle annotations:
//
//	Warning: 299 - "batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob"
//
// and a request for a removed one with its plain 404 ("404 page not found").
// We keep that 404 byte for byte but add a Warning naming the replacement —
// our own addition, for users following old tutorials:
//
//	GET /apis/extensions/v1beta1/namespaces/default/deployments
//	404 404 page not found
//	Warning: 299 - "extensions/v1beta1 Deployment is removed since v1.16; use apps/v1 Deployment"
//
// Custom resources: a CRD version marked `deprecated: true` gets its
// `deprecationWarning` or apiextensions' default text on every request to
// that version:
//
//	Warning: 299 - "example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget"

// serverMinor is the Kubernetes minor version we emulate (v1.37).
const serverMinor = 37

// apiLifecycle is one row of the deprecation table: when a built-in
// group/version/resource was deprecated and removed, and what replaces it
// ("apps/v1 Deployment"; empty when nothing does).
type apiLifecycle struct {
	Group, Version, Resource, Kind string
	Deprecated, Removed            int // minor versions of Kubernetes 1.x
	Replacement                    string
}

// apiLifecycles: the removed APIs of the deprecated API migration guide.
// Deprecated/Removed come from k8s.io/api's zz_generated.prerelease-lifecycle.go
// (v0.37.2); rows for types no longer in k8s.io/api (PodSecurityPolicy,
// autoscaling/v2beta*, apiextensions and apiregistration v1beta1) from the
// guide. Replacements name the API to use today (flowcontrol: v1).
var apiLifecycles = []apiLifecycle{
	// v1.16
	{"extensions", "v1beta1", "deployments", "Deployment", 8, 16, "apps/v1 Deployment"},
	{"extensions", "v1beta1", "daemonsets", "DaemonSet", 8, 16, "apps/v1 DaemonSet"},
	{"extensions", "v1beta1", "replicasets", "ReplicaSet", 8, 16, "apps/v1 ReplicaSet"},
	{"extensions", "v1beta1", "networkpolicies", "NetworkPolicy", 9, 16, "networking.k8s.io/v1 NetworkPolicy"},
	{"extensions", "v1beta1", "podsecuritypolicies", "PodSecurityPolicy", 11, 16, ""},
	{"apps", "v1beta1", "deployments", "Deployment", 8, 16, "apps/v1 Deployment"},
	{"apps", "v1beta1", "statefulsets", "StatefulSet", 8, 16, "apps/v1 StatefulSet"},
	{"apps", "v1beta1", "replicasets", "ReplicaSet", 8, 16, "apps/v1 ReplicaSet"},
	{"apps", "v1beta1", "controllerrevisions", "ControllerRevision", 8, 16, "apps/v1 ControllerRevision"},
	{"apps", "v1beta2", "deployments", "Deployment", 9, 16, "apps/v1 Deployment"},
	{"apps", "v1beta2", "statefulsets", "StatefulSet", 9, 16, "apps/v1 StatefulSet"},
	{"apps", "v1beta2", "daemonsets", "DaemonSet", 9, 16, "apps/v1 DaemonSet"},
	{"apps", "v1beta2", "replicasets", "ReplicaSet", 9, 16, "apps/v1 ReplicaSet"},
	{"apps", "v1beta2", "controllerrevisions", "ControllerRevision", 9, 16, "apps/v1 ControllerRevision"},
	// v1.22
	{"extensions", "v1beta1", "ingresses", "Ingress", 14, 22, "networking.k8s.io/v1 Ingress"},
	{"networking.k8s.io", "v1beta1", "ingresses", "Ingress", 19, 22, "networking.k8s.io/v1 Ingress"},
	{"networking.k8s.io", "v1beta1", "ingressclasses", "IngressClass", 19, 22, "networking.k8s.io/v1 IngressClass"},
	{"admissionregistration.k8s.io", "v1beta1", "mutatingwebhookconfigurations", "MutatingWebhookConfiguration", 16, 22, "admissionregistration.k8s.io/v1 MutatingWebhookConfiguration"},
	{"admissionregistration.k8s.io", "v1beta1", "validatingwebhookconfigurations", "ValidatingWebhookConfiguration", 16, 22, "admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration"},
	{"apiextensions.k8s.io", "v1beta1", "customresourcedefinitions", "CustomResourceDefinition", 16, 22, "apiextensions.k8s.io/v1 CustomResourceDefinition"},
	{"apiregistration.k8s.io", "v1beta1", "apiservices", "APIService", 19, 22, "apiregistration.k8s.io/v1 APIService"},
	{"authentication.k8s.io", "v1beta1", "tokenreviews", "TokenReview", 19, 22, "authentication.k8s.io/v1 TokenReview"},
	{"authorization.k8s.io", "v1beta1", "localsubjectaccessreviews", "LocalSubjectAccessReview", 19, 22, "authorization.k8s.io/v1 LocalSubjectAccessReview"},
	{"authorization.k8s.io", "v1beta1", "selfsubjectaccessreviews", "SelfSubjectAccessReview", 19, 22, "authorization.k8s.io/v1 SelfSubjectAccessReview"},
	{"authorization.k8s.io", "v1beta1", "selfsubjectrulesreviews", "SelfSubjectRulesReview", 19, 22, "authorization.k8s.io/v1 SelfSubjectRulesReview"},
	{"authorization.k8s.io", "v1beta1", "subjectaccessreviews", "SubjectAccessReview", 19, 22, "authorization.k8s.io/v1 SubjectAccessReview"},
	{"certificates.k8s.io", "v1beta1", "certificatesigningrequests", "CertificateSigningRequest", 19, 22, "certificates.k8s.io/v1 CertificateSigningRequest"},
	{"coordination.k8s.io", "v1beta1", "leases", "Lease", 19, 22, "coordination.k8s.io/v1 Lease"},
	{"rbac.authorization.k8s.io", "v1beta1", "clusterroles", "ClusterRole", 17, 22, "rbac.authorization.k8s.io/v1 ClusterRole"},
	{"rbac.authorization.k8s.io", "v1beta1", "clusterrolebindings", "ClusterRoleBinding", 17, 22, "rbac.authorization.k8s.io/v1 ClusterRoleBinding"},
	{"rbac.authorization.k8s.io", "v1beta1", "roles", "Role", 17, 22, "rbac.authorization.k8s.io/v1 Role"},
	{"rbac.authorization.k8s.io", "v1beta1", "rolebindings", "RoleBinding", 17, 22, "rbac.authorization.k8s.io/v1 RoleBinding"},
	{"scheduling.k8s.io", "v1beta1", "priorityclasses", "PriorityClass", 14, 22, "scheduling.k8s.io/v1 PriorityClass"},
	{"storage.k8s.io", "v1beta1", "csidrivers", "CSIDriver", 19, 22, "storage.k8s.io/v1 CSIDriver"},
	{"storage.k8s.io", "v1beta1", "csinodes", "CSINode", 17, 22, "storage.k8s.io/v1 CSINode"},
	{"storage.k8s.io", "v1beta1", "storageclasses", "StorageClass", 19, 22, "storage.k8s.io/v1 StorageClass"},
	{"storage.k8s.io", "v1beta1", "volumeattachments", "VolumeAttachment", 19, 22, "storage.k8s.io/v1 VolumeAttachment"},
	// v1.25
	{"batch", "v1beta1", "cronjobs", "CronJob", 21, 25, "batch/v1 CronJob"},
	{"discovery.k8s.io", "v1beta1", "endpointslices", "EndpointSlice", 21, 25, "discovery.k8s.io/v1 EndpointSlice"},
	{"events.k8s.io", "v1beta1", "events", "Event", 22, 25, "events.k8s.io/v1 Event"},
	{"autoscaling", "v2beta1", "horizontalpodautoscalers", "HorizontalPodAutoscaler", 22, 25, "autoscaling/v2 HorizontalPodAutoscaler"},
	{"policy", "v1beta1", "poddisruptionbudgets", "PodDisruptionBudget", 21, 25, "policy/v1 PodDisruptionBudget"},
	{"policy", "v1beta1", "podsecuritypolicies", "PodSecurityPolicy", 21, 25, ""},
	{"node.k8s.io", "v1beta1", "runtimeclasses", "RuntimeClass", 22, 25, "node.k8s.io/v1 RuntimeClass"},
	// v1.26
	{"flowcontrol.apiserver.k8s.io", "v1beta1", "flowschemas", "FlowSchema", 23, 26, "flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
	{"flowcontrol.apiserver.k8s.io", "v1beta1", "prioritylevelconfigurations", "PriorityLevelConfiguration", 23, 26, "flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration"},
	{"autoscaling", "v2beta2", "horizontalpodautoscalers", "HorizontalPodAutoscaler", 23, 26, "autoscaling/v2 HorizontalPodAutoscaler"},
	// v1.27
	{"storage.k8s.io", "v1beta1", "csistoragecapacities", "CSIStorageCapacity", 24, 27, "storage.k8s.io/v1 CSIStorageCapacity"},
	// v1.29
	{"flowcontrol.apiserver.k8s.io", "v1beta2", "flowschemas", "FlowSchema", 26, 29, "flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
	{"flowcontrol.apiserver.k8s.io", "v1beta2", "prioritylevelconfigurations", "PriorityLevelConfiguration", 26, 29, "flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration"},
	// v1.32
	{"flowcontrol.apiserver.k8s.io", "v1beta3", "flowschemas", "FlowSchema", 29, 32, "flowcontrol.apiserver.k8s.io/v1 FlowSchema"},
	{"flowcontrol.apiserver.k8s.io", "v1beta3", "prioritylevelconfigurations", "PriorityLevelConfiguration", 29, 32, "flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration"},
}

// lookupLifecycle finds the table row for a group/version/resource.
func lookupLifecycle(group, version, res string) (apiLifecycle, bool) {
	for _, l := range apiLifecycles {
		if l.Group == group && l.Version == version && l.Resource == res {
			return l, true
		}
	}
	return apiLifecycle{}, false
}

func (l apiLifecycle) groupVersion() string {
	if l.Group == "" {
		return l.Version
	}
	return l.Group + "/" + l.Version
}

// deprecationWarning is the real server's text for a deprecated-but-served
// built-in (apiserver's deprecation.WarningMessage), "" when l is not
// deprecated at serverMinor:
//
//	batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob
func deprecationWarning(l apiLifecycle, minor int) string {
	if l.Deprecated <= 0 || minor < l.Deprecated {
		return ""
	}
	msg := fmt.Sprintf("%s %s is deprecated in v1.%d+", l.groupVersion(), l.Kind, l.Deprecated)
	if l.Removed > 0 {
		msg += fmt.Sprintf(", unavailable in v1.%d+", l.Removed)
	}
	if l.Replacement != "" {
		msg += "; use " + l.Replacement
	}
	return msg
}

// removedAPIHint is our hint for a request to a removed built-in API ("" if
// group/version/resource is not one, or not removed at minor):
//
//	apps/v1beta1 Deployment is removed since v1.16; use apps/v1 Deployment
func removedAPIHint(group, version, res string, minor int) string {
	l, ok := lookupLifecycle(group, version, res)
	if !ok || l.Removed <= 0 || minor < l.Removed {
		return ""
	}
	msg := fmt.Sprintf("%s %s is removed since v1.%d", l.groupVersion(), l.Kind, l.Removed)
	if l.Replacement != "" {
		msg += "; use " + l.Replacement
	}
	return msg
}

// crdDeprecationWarning is apiextensions' warning for a request to version
// of a CRD: the version's deprecationWarning, or when that is unset the
// default text, which names the newest served, non-deprecated version
// that is newer than this one:
//
//	example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget
//
// "" when the version is not deprecated.
func crdDeprecationWarning(crd map[string]any, version string) string {
	spec, _ := crd["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	group, kind := str(spec, "group"), str(names, "kind")
	var this map[string]any
	for _, v := range crdVersions(crd) {
		if str(v, "name") == version {
			this = v
		}
	}
	if dep, _ := this["deprecated"].(bool); !dep {
		return ""
	}
	if w, ok := this["deprecationWarning"].(string); ok {
		return w
	}
	msg := fmt.Sprintf("%s/%s %s is deprecated", group, version, kind)
	newest := ""
	for _, v := range crdVersions(crd) {
		name := str(v, "name")
		served, _ := v["served"].(bool)
		dep, _ := v["deprecated"].(bool)
		if !served || dep || compareKubeAwareVersions(version, name) >= 0 {
			continue
		}
		if newest == "" || compareKubeAwareVersions(name, newest) > 0 {
			newest = name
		}
	}
	if newest != "" {
		msg += fmt.Sprintf("; use %s/%s %s", group, newest, kind)
	}
	return msg
}

// compareKubeAwareVersions orders versions as apimachinery's
// CompareKubeAwareVersionStrings: GA > beta > alpha, then major, then
// minor; non-Kubernetes-like names sort below and among themselves in
// reverse lexical order. >0 means a is newer.
func compareKubeAwareVersions(a, b string) int { return openapi.CompareKubeAwareVersions(a, b) }

// parseKubeVersion reads ^v(\d+)(?:(alpha|beta)(\d+))?$; stage is 0 alpha,
// 1 beta, 2 GA. Numbers that overflow an int are not Kubernetes-like (as
// strconv.Atoi fails there).
func parseKubeVersion(v string) (major, stage, minor int, ok bool) {
	if !strings.HasPrefix(v, "v") {
		return 0, 0, 0, false
	}
	rest := v[1:]
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, 0, 0, false
	}
	major, err := strconv.Atoi(rest[:i])
	if err != nil {
		return 0, 0, 0, false
	}
	rest = rest[i:]
	if rest == "" {
		return major, 2, 0, true
	}
	switch {
	case strings.HasPrefix(rest, "alpha"):
		stage, rest = 0, rest[len("alpha"):]
	case strings.HasPrefix(rest, "beta"):
		stage, rest = 1, rest[len("beta"):]
	default:
		return 0, 0, 0, false
	}
	if rest == "" || strings.TrimLeft(rest, "0123456789") != "" {
		return 0, 0, 0, false
	}
	minor, err = strconv.Atoi(rest)
	if err != nil {
		return 0, 0, 0, false
	}
	return major, stage, minor, true
}

// warningHeader formats a Warning header value as apimachinery's
// NewWarningHeader(299, "-", text): `299 - "text"` with " and \ escaped.
// ok is false for text a real server refuses to send (invalid UTF-8 or
// control characters).
func warningHeader(text string) (string, bool) {
	if text == "" || !utf8.ValidString(text) {
		return "", false
	}
	var b strings.Builder
	b.WriteString(`299 - "`)
	for _, c := range text {
		if unicode.IsControl(c) {
			return "", false
		}
		if c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	b.WriteByte('"')
	return b.String(), true
}

// addAPIWarnings adds the Warning headers for a resource request, before
// anything is written: the hint for a removed built-in API (res == nil),
// the deprecation warning of a deprecated built-in or CRD version.
// It is called once from serveResource, right after the registry lookup.
func (s *Server) addAPIWarnings(w http.ResponseWriter, ri reqInfo, res *resource.Resource) {
	var text string
	switch {
	case res == nil:
		text = removedAPIHint(ri.group, ri.version, ri.resource, serverMinor)
	case ri.tooManyParts:
		return
	case !res.Namespaced && ri.namespaceInPath && res.Resource != "namespaces":
		return // answered by the 404 handler, as apiextensions delegates
	case res.Hooks.Computed != nil && ri.verb != "get" && ri.verb != "list" && ri.verb != "watch":
		return // no route: the mux's 405 carries no warning
	case res.CRD:
		if res.Namespaced && !ri.namespaceInPath && ri.verb != "list" && ri.verb != "watch" {
			return
		}
		text = s.crdVersionWarning(res)
	case res.Deprecation != "":
		text = res.Deprecation
	default:
		if l, ok := lookupLifecycle(res.Group, res.Version, res.Resource); ok {
			text = deprecationWarning(l, serverMinor)
		}
	}
	if h, ok := warningHeader(text); ok {
		w.Header().Add("Warning", h)
	}
}

// deprecatedMarker is how a stored CRD that deprecates any version must
// look (jsonx output is compact); it spares decoding every other CRD on
// every custom resource request.
var deprecatedMarker = []byte(`"deprecated":true`)

// crdVersionWarning reads res's CRD and returns its deprecation warning
// for res.Version ("" for none).
func (s *Server) crdVersionWarning(res *resource.Resource) string {
	name := s.reg.ownerOf(res)
	crdRes := s.reg.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions")
	if name == "" || crdRes == nil {
		return ""
	}
	kv, _, err := s.store.Get(storageKey(crdRes, "", name), 0)
	if err != nil || !bytes.Contains(kv.Value, deprecatedMarker) {
		return ""
	}
	crd, err := jsonx.DecodeObject(kv.Value)
	if err != nil {
		return ""
	}
	return crdDeprecationWarning(crd, res.Version)
}

func crdVersions(crd object) []map[string]any {
	spec, _ := crd["spec"].(map[string]any)
	l, _ := spec["versions"].([]any)
	var out []map[string]any
	for _, e := range l {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}
