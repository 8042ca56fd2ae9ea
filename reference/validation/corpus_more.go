package validation

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func init() { Kinds = append(Kinds, moreKinds...) }

func gvk(g, v, k string) schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: g, Version: v, Kind: k}
}

type m = map[string]any
type l = []any

// moreKinds are the kinds of issue 12 item 2 with their own validation.
var moreKinds = []*Kind{
	{Name: "Ingress", GVK: gvk("networking.k8s.io", "v1", "Ingress"), Plural: "ingresses",
		Base: `{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"ing"},"spec":{"ingressClassName":"nginx",` +
			`"rules":[{"host":"example.com","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"web","port":{"number":80}}}}]}}],` +
			`"tls":[{"hosts":["example.com"],"secretName":"tls"}]}}`,
		Own: []Mut{{Path: "spec.rules", Del: true}, {Path: "spec.rules", Val: l{}},
			{Path: "spec.defaultBackend", Val: m{"service": m{"name": "web", "port": m{"name": "http"}}}},
			{Path: "spec.defaultBackend", Val: m{}},
			{Path: "spec.defaultBackend", Val: m{"service": m{"name": "web", "port": m{"name": "http", "number": 80}}, "resource": m{"kind": "X", "name": "y"}}},
			{Path: "spec.defaultBackend", Val: m{"resource": m{"apiGroup": "Bad_Group", "kind": "a/b", "name": ""}}},
			{Path: "spec.rules.0.host", Val: "*.example.com"}, {Path: "spec.rules.0.host", Val: "*"}, {Path: "spec.rules.0.host", Val: "10.0.0.1"},
			{Path: "spec.rules.0.host", Val: "Bad_Host"}, {Path: "spec.rules.0.http.paths", Val: l{}},
			{Path: "spec.rules.0.http.paths.0.pathType", Del: true}, {Path: "spec.rules.0.http.paths.0.pathType", Val: "Regex"},
			{Path: "spec.rules.0.http.paths.0.pathType", Val: "Exact"}, {Path: "spec.rules.0.http.paths.0.pathType", Val: "ImplementationSpecific"},
			{Path: "spec.rules.0.http.paths.0.path", Val: "foo"}, {Path: "spec.rules.0.http.paths.0.path", Val: "/a//b/."},
			{Path: "spec.rules.0.http.paths.0.path", Val: "/a/../b%2F/.."}, {Path: "spec.rules.0.http.paths.0.path", Del: true},
			{Path: "spec.rules.0.http.paths.0.backend", Val: m{}}, {Path: "spec.rules.0.http.paths.0.backend.service.name", Val: "Bad.Svc"},
			{Path: "spec.rules.0.http.paths.0.backend.service.name", Val: "1web"}, {Path: "spec.rules.0.http.paths.0.backend.service.name", Del: true},
			{Path: "spec.rules.0.http.paths.0.backend.service.port", Val: m{}}, {Path: "spec.rules.0.http.paths.0.backend.service.port", Val: m{"number": 70000}},
			{Path: "spec.rules.0.http.paths.0.backend.service.port", Val: m{"name": "Bad_Port"}},
			{Path: "spec.rules.0.http", Del: true}, {Path: "spec.rules.1", Val: m{"host": "b.example.com"}},
			{Path: "spec.tls.0.hosts", Val: l{"*.ok.com", "Bad_Host", "*"}}, {Path: "spec.tls.0.secretName", Val: "Bad_Secret"},
			{Path: "spec.ingressClassName", Val: "Bad_Class"}, {Path: "spec.ingressClassName", Del: true},
			{Path: "metadata.annotations", Val: m{"kubernetes.io/ingress.class": "other"}},
			{Path: "metadata.annotations", Val: m{"kubernetes.io/ingress.class": "nginx"}}}},
	{Name: "IngressClass", GVK: gvk("networking.k8s.io", "v1", "IngressClass"), Plural: "ingressclasses", Cluster: true,
		Base: `{"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"nginx"},"spec":{"controller":"k8s.io/ingress-nginx"}}`,
		Own: []Mut{{Path: "spec.controller", Del: true}, {Path: "spec.controller", Val: "nginx"}, {Path: "spec.controller", Val: "Bad_Domain/x"},
			{Path: "spec.controller", Val: "example.com/a b"}, {Path: "spec.controller", Val: "example.com/" + strings.Repeat("x", 250)},
			{Path: "spec.controller", Val: "example.com/other"},
			{Path: "spec.parameters", Val: m{"kind": "Params", "name": "p"}},
			{Path: "spec.parameters", Val: m{"kind": "Params", "name": "p", "scope": "Cluster"}},
			{Path: "spec.parameters", Val: m{"kind": "Params", "name": "p", "scope": "Cluster", "namespace": "x"}},
			{Path: "spec.parameters", Val: m{"kind": "Params", "name": "p", "scope": "Namespace"}},
			{Path: "spec.parameters", Val: m{"apiGroup": "Bad", "kind": "a/b", "name": "..", "scope": "Namespace", "namespace": "Bad_NS"}},
			{Path: "spec.parameters", Val: m{"scope": "Galaxy"}}}},
	{Name: "NetworkPolicy", GVK: gvk("networking.k8s.io", "v1", "NetworkPolicy"), Plural: "networkpolicies",
		Base: `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"np"},"spec":{"podSelector":{"matchLabels":{"app":"db"}},` +
			`"policyTypes":["Ingress","Egress"],"ingress":[{"from":[{"podSelector":{"matchLabels":{"app":"web"}}}],"ports":[{"protocol":"TCP","port":5432}]}],` +
			`"egress":[{"to":[{"ipBlock":{"cidr":"10.0.0.0/8","except":["10.1.0.0/16"]}}]}]}}`,
		Own: []Mut{{Path: "spec.podSelector", Del: true}, {Path: "spec.podSelector.matchLabels", Val: m{"bad key!": "x"}},
			{Path: "spec.podSelector.matchExpressions", Val: l{m{"key": "a", "operator": "In", "values": l{"bad value!"}}}},
			{Path: "spec.policyTypes", Val: l{"Ingress", "Sideways"}}, {Path: "spec.policyTypes", Val: l{"Ingress", "Egress", "Ingress"}},
			{Path: "spec.ingress.0.ports.0.protocol", Val: "ICMP"}, {Path: "spec.ingress.0.ports.0.port", Val: 0},
			{Path: "spec.ingress.0.ports.0.port", Val: "Bad_Port"}, {Path: "spec.ingress.0.ports.0.port", Val: "http"},
			{Path: "spec.ingress.0.ports.0.endPort", Val: 5000}, {Path: "spec.ingress.0.ports.0.endPort", Val: 70000},
			{Path: "spec.ingress.0.ports.0.port", Del: true}, {Path: "spec.ingress.0.from.0", Val: m{}},
			{Path: "spec.ingress.0.from.0.namespaceSelector", Val: m{}}, {Path: "spec.ingress.0.from.0.ipBlock", Val: m{"cidr": "1.2.3.0/24"}},
			{Path: "spec.egress.0.to.0.ipBlock.cidr", Val: ""}, {Path: "spec.egress.0.to.0.ipBlock.cidr", Val: "10.0.0.1/8"},
			{Path: "spec.egress.0.to.0.ipBlock.cidr", Val: "010.0.0.0/8"}, {Path: "spec.egress.0.to.0.ipBlock.cidr", Val: "nope"},
			{Path: "spec.egress.0.to.0.ipBlock.cidr", Val: "2001:DB8::/32"}, {Path: "spec.egress.0.to.0.ipBlock.cidr", Val: "::ffff:10.0.0.0/104"},
			{Path: "spec.egress.0.to.0.ipBlock.except", Val: l{"10.0.0.0/8", "11.0.0.0/16", "x", "10.2.0.0/16"}}}},
{Name: "PodDisruptionBudget", GVK: gvk("policy", "v1", "PodDisruptionBudget"), Plural: "poddisruptionbudgets",
		Base: `{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"pdb"},"spec":{"minAvailable":2,"selector":{"matchLabels":{"app":"web"}}}}`,
		Own: []Mut{{Path: "spec.maxUnavailable", Val: 1}, {Path: "spec.maxUnavailable", Val: "50%"}, {Path: "spec.minAvailable", Val: -1},
			{Path: "spec.minAvailable", Val: "120%"}, {Path: "spec.minAvailable", Val: "half"}, {Path: "spec.minAvailable", Del: true},
			{Path: "spec.selector", Del: true}, {Path: "spec.selector", Val: m{}},
			{Path: "spec.selector.matchExpressions", Val: l{m{"key": "a", "operator": "Near"}}},
			{Path: "spec.selector.matchLabels", Val: m{"app": "bad value!"}},
			{Path: "spec.unhealthyPodEvictionPolicy", Val: "AlwaysAllow"}, {Path: "spec.unhealthyPodEvictionPolicy", Val: "Never"},
			{Path: "status", Val: m{"currentHealthy": 3, "desiredHealthy": 2, "disruptionsAllowed": 1, "expectedPods": 3}}}},
	{Name: "HorizontalPodAutoscaler", GVK: gvk("autoscaling", "v2", "HorizontalPodAutoscaler"), Plural: "horizontalpodautoscalers",
		Base: `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"hpa"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},` +
			`"minReplicas":1,"maxReplicas":5,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":60}}}]}}`,
		Own: []Mut{{Path: "spec.minReplicas", Val: 0}, {Path: "spec.minReplicas", Val: 10}, {Path: "spec.minReplicas", Del: true},
			{Path: "spec.maxReplicas", Val: 0}, {Path: "spec.maxReplicas", Val: -2},
			{Path: "spec.scaleTargetRef", Val: m{}}, {Path: "spec.scaleTargetRef.apiVersion", Val: "v1"}, {Path: "spec.scaleTargetRef.apiVersion", Val: "a/b/c"},
			{Path: "spec.scaleTargetRef", Val: m{"apiVersion": "v1", "kind": "ReplicationController", "name": "rc"}},
			{Path: "spec.scaleTargetRef.kind", Val: "a/b"}, {Path: "spec.scaleTargetRef.name", Val: ".."},
			{Path: "spec.metrics", Del: true}, {Path: "spec.metrics", Val: l{}}, {Path: "spec.metrics.0.type", Val: "Pods"},
			{Path: "spec.metrics.0.type", Val: ""}, {Path: "spec.metrics.0.type", Val: "Magic"},
			{Path: "spec.metrics.0.resource.name", Val: ""}, {Path: "spec.metrics.0.resource.target", Val: m{"type": "Sometimes"}},
			{Path: "spec.metrics.0.resource.target", Val: m{"type": "AverageValue", "averageValue": "-1", "averageUtilization": 0}},
			{Path: "spec.metrics.0.resource.target", Val: m{"type": "Value", "value": "0"}},
			{Path: "spec.metrics.1", Val: m{"type": "Pods", "pods": m{"metric": m{"name": "qps"}, "target": m{"type": "AverageValue", "averageValue": "10"}}}},
			{Path: "spec.metrics.1", Val: m{"type": "Pods", "pods": m{"metric": m{}, "target": m{"type": "Value"}}}},
			{Path: "spec.metrics.1", Val: m{"type": "Object", "object": m{"describedObject": m{"kind": "Service", "name": "s"}, "metric": m{"name": "rps"}, "target": m{"type": "Value", "value": "1k"}}}},
			{Path: "spec.metrics.1", Val: m{"type": "Object", "object": m{"describedObject": m{"apiVersion": "a/b/c"}, "metric": m{"name": "a/b"}, "target": m{"type": "Value"}}}},
			{Path: "spec.metrics.1", Val: m{"type": "External", "external": m{"metric": m{"name": "q"}, "target": m{"type": "Value", "value": "1", "averageValue": "2"}}}},
			{Path: "spec.metrics.1", Val: m{"type": "External", "external": m{"metric": m{"name": "q"}, "target": m{"type": "Value"}}, "pods": m{}}},
			{Path: "spec.metrics.1", Val: m{"type": "ContainerResource", "containerResource": m{"name": "gpu", "container": "App", "target": m{"type": "Utilization", "averageUtilization": 50, "averageValue": "1"}}}},
			{Path: "spec.metrics.1", Val: m{"type": "ContainerResource", "containerResource": m{"target": m{"type": "Utilization"}}}},
			{Path: "spec.behavior", Val: m{}}, {Path: "spec.behavior.scaleUp", Val: m{"stabilizationWindowSeconds": -1, "selectPolicy": "Avg"}},
			{Path: "spec.behavior.scaleDown", Val: m{"stabilizationWindowSeconds": 4000, "policies": l{}}},
			{Path: "spec.behavior.scaleDown", Val: m{"policies": l{m{"type": "Nodes", "value": 0, "periodSeconds": 2000}, m{"type": "Pods", "value": 1, "periodSeconds": 0}}}},
			{Path: "spec.behavior.scaleUp", Val: m{"tolerance": "-0.1"}}, {Path: "spec.behavior.scaleUp", Val: m{"tolerance": "0.05"}},
			{Path: "status", Val: m{"currentReplicas": 2, "desiredReplicas": 3}}}},
}
