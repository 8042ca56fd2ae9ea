package corev1_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

// ResourceQuota as ValidateResourceQuota(Update) answers (texts from the
// differential run against k8s.io/kubernetes v1.37.2).
func TestValidateResourceQuota(t *testing.T) {
	q := func(spec string) string {
		return `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q","namespace":"default","resourceVersion":"1"},"spec":` + spec + `}`
	}
	vtest.Run(t, "", "resourcequotas", []vtest.Case{
		{Name: "valid", Obj: q(`{"hard":{"pods":"10","requests.cpu":"4","count/deployments.apps":"2","example.com/gpu":"1"}}`)},
		{Name: "names and values", Obj: q(`{"hard":{"pods":"1500m","gpus":"1","storage":"1Gi","requests.cpu":"-1"}}`), Want: []string{
			`spec.hard[gpus]: Invalid value: "gpus": must be a standard resource type or fully qualified`,
			`spec.hard[gpus]: Invalid value: "gpus": must be a standard resource for quota`,
			`spec.hard[pods]: Invalid value: "1500m": must be an integer`,
			`spec.hard[requests.cpu]: Invalid value: "-1": must be greater than or equal to 0`,
			`spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota`}},
		{Name: "scopes", Obj: q(`{"hard":{"cpu":"1"},"scopes":["BestEffort","NotBestEffort"]}`), Want: []string{
			`spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: unsupported scope applied to resource`,
			`spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: conflicting scopes`}},
		{Name: "scope selector", Obj: q(`{"hard":{"pods":"1"},"scopeSelector":{"matchExpressions":[{"scopeName":"Terminating","operator":"In"},{"scopeName":"Galaxy","operator":"Near"}]}}`), Want: []string{
			"spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
			"spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
			`spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Galaxy": unsupported scope`,
			`spec.scopeSelector.matchExpressions.operator: Invalid value: "Near": not a valid selector operator`}},
		{Name: "scopes are immutable", Old: q(`{"hard":{"pods":"1"}}`), Obj: q(`{"hard":{"pods":"1"},"scopes":["BestEffort"]}`), Want: []string{
			`spec.scopes: Invalid value: ["BestEffort"]: field is immutable`}},
	})
}

// EndpointSlices as ValidateEndpointSliceCreate/Update answer.
func TestValidateEndpointSlice(t *testing.T) {
	s := func(at, rest string) string {
		return `{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"s","namespace":"default","resourceVersion":"1"},"addressType":"` + at + `"` + rest + `}`
	}
	const ep = `,"endpoints":[{"addresses":["10.1.2.3"],"nodeName":"node-1"}]`
	vtest.Run(t, "discovery.k8s.io", "endpointslices", []vtest.Case{
		{Name: "valid, port defaults", Obj: s("IPv4", `,"ports":[{"port":80}]`+ep)},
		{Name: "address types", Obj: s("IPv4", `,"endpoints":[{"addresses":["2001:db8::1","127.0.0.1"]},{"addresses":[]}]`), Want: []string{
			`endpoints[0].addresses: Invalid value: "2001:db8::1": must be an IPv4 address`,
			`endpoints[0].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)`,
			`endpoints[1].addresses: Required value: must contain at least 1 address`}},
		{Name: "IPv6 canonical form, FQDN", Obj: s("IPv6", `,"endpoints":[{"addresses":["2001:DB8::1"]}]`), Want: []string{
			`endpoints[0].addresses[0]: Invalid value: "2001:DB8::1": must be in canonical form ("2001:db8::1")`}},
		{Name: "ports", Obj: s("FQDN", `,"ports":[{"name":"http","protocol":"ICMP"},{"name":"http"}],"endpoints":[{"addresses":["web"]}]`), Want: []string{
			`ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"`,
			`ports[1].name: Duplicate value: "http"`,
			`endpoints[0].addresses[0]: Invalid value: "web": should be a domain with at least two segments separated by dots`}},
		{Name: "addressType is immutable", Old: s("IPv4", ep), Obj: s("IPv6", ep), Want: []string{
			`addressType: Invalid value: "IPv6": field is immutable`}},
		{Name: "unknown address type", Obj: s("IPv5", ""), Want: []string{
			`addressType: Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"`}},
	})
}

// PersistentVolumes as ValidatePersistentVolume(Update) answer, with the
// strategy's doubling of the spec's causes on update.
func TestValidatePV(t *testing.T) {
	pv := func(spec string) string {
		return `{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv","resourceVersion":"1"},"spec":` + spec + `}`
	}
	const ok = `{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/data"}`
	vtest.Run(t, "", "persistentvolumes", []vtest.Case{
		{Name: "valid", Obj: pv(ok + `}`)},
		{Name: "nothing but capacity", Obj: pv(`{"capacity":{"storage":"1Gi"}}`), Want: []string{
			"spec.accessModes: Required value",
			"spec: Required value: must specify a volume type"}},
		{Name: "two sources, a local one without affinity", Obj: pv(`{"capacity":{"storage":"0","cpu":"1"},"accessModes":["ReadWriteOncePod","ReadOnlyMany"],"nfs":{"path":"x"},"local":{"path":"/a/../b"}}`), Want: []string{
			"spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes",
			`spec.capacity: Unsupported value: {"cpu":"1","storage":"0"}: supported values: "storage"`,
			`spec.capacity[storage]: Invalid value: "0": must be greater than zero`,
			"spec.nfs.server: Required value",
			`spec.nfs.path: Invalid value: "x": must be an absolute path`,
			"spec.local: Forbidden: may not specify more than 1 volume type"}},
		{Name: "node affinity", Obj: pv(ok + `,"nodeAffinity":{"required":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"k","operator":"In"}],"matchFields":[{"key":"metadata.uid","operator":"In","values":["a"]}]}]}}}`), Want: []string{
			"spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
			`spec.nodeAffinity.required.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "metadata.uid": not a valid field selector key`}},
		{Name: "update: the source and volumeMode are immutable", Old: pv(ok + `}`), Obj: pv(`{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/other"},"volumeMode":"Block"}`), Want: []string{
			"spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n" +
				"@@ -1,6 +1,6 @@\n {\n  \"hostPath\": {\n-  \"path\": \"/data\",\n+  \"path\": \"/other\",\n   \"type\": \"\"\n  }\n }\n",
			`volumeMode: Invalid value: "Block": field is immutable`}},
	})
}
