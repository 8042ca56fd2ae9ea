package quota

import (
	"encoding/json"
	"testing"
)

func obj(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestUsage(t *testing.T) {
	const now = "2026-01-01T00:00:10Z"
	cases := []struct {
		name, group, resource, obj, want string
	}{
		{"pod sums containers", "", "pods", `{"spec":{"containers":[{"resources":{"requests":{"cpu":"500m"},"limits":{"cpu":"1","memory":"1Gi"}}},{"resources":{"requests":{"cpu":"700m","memory":"64Mi"}}}]}}`,
			"count/pods=1,cpu=1200m,limits.cpu=1,limits.memory=1Gi,memory=64Mi,pods=1,requests.cpu=1200m,requests.memory=64Mi"},
		{"init container larger", "", "pods", `{"spec":{"initContainers":[{"resources":{"requests":{"cpu":"2"}}}],"containers":[{"resources":{"requests":{"cpu":"1"}}}]}}`,
			"count/pods=1,cpu=2,pods=1,requests.cpu=2"},
		{"finished pod counts as an object only", "", "pods", `{"spec":{"containers":[{}]},"status":{"phase":"Succeeded"}}`, "count/pods=1"},
		{"pod past its grace period", "", "pods", `{"metadata":{"deletionTimestamp":"2026-01-01T00:00:00Z","deletionGracePeriodSeconds":5},"spec":{"containers":[{}]}}`, "count/pods=1"},
		{"pod in its grace period", "", "pods", `{"metadata":{"deletionTimestamp":"2026-01-01T00:00:00Z","deletionGracePeriodSeconds":30},"spec":{"containers":[{}]}}`, "count/pods=1,pods=1"},
		{"node port service", "", "services", `{"spec":{"type":"NodePort","ports":[{"port":1},{"port":2}]}}`,
			"count/services=1,services=1,services.loadbalancers=0,services.nodeports=2"},
		{"claim with class", "", "persistentvolumeclaims", `{"spec":{"storageClassName":"fast","resources":{"requests":{"storage":"1Gi"}}}}`,
			"count/persistentvolumeclaims=1,fast.storageclass.storage.k8s.io/persistentvolumeclaims=1,fast.storageclass.storage.k8s.io/requests.storage=1Gi,persistentvolumeclaims=1,requests.storage=1Gi"},
		{"legacy count", "", "configmaps", `{}`, "configmaps=1,count/configmaps=1"},
		{"grouped count", "apps", "deployments", `{}`, "count/deployments.apps=1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Pretty(Usage(c.group, c.resource, obj(t, c.obj), now)); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestConstraintsAndScopes(t *testing.T) {
	pod := obj(t, `{"spec":{"priorityClassName":"high","containers":[{"name":"b","resources":{"requests":{"cpu":"1"}}},{"name":"a"}]},"status":{"qosClass":"Burstable"}}`)
	if got, want := Constraints("", "pods", []string{"requests.cpu", "limits.memory", "pods"}, pod), "must specify limits.memory for: a,b; requests.cpu for: a"; got != want {
		t.Errorf("Constraints %q, want %q", got, want)
	}
	for _, c := range []struct {
		quota string
		want  bool
	}{
		{`{"spec":{"scopes":["NotBestEffort"]},"status":{"hard":{"pods":"1"}}}`, true},
		{`{"spec":{"scopes":["BestEffort"]},"status":{"hard":{"pods":"1"}}}`, false},
		{`{"spec":{"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"In","values":["high"]}]}},"status":{"hard":{"pods":"1"}}}`, true},
		{`{"spec":{"scopeSelector":{"matchExpressions":[{"scopeName":"PriorityClass","operator":"NotIn","values":["high"]}]}},"status":{"hard":{"pods":"1"}}}`, false},
		{`{"status":{"hard":{"services":"1"}}}`, false},
	} {
		q := obj(t, c.quota)
		if got := Applies(q, "", "pods", pod, HardNames(q)); got != c.want {
			t.Errorf("Applies(%s) = %v, want %v", c.quota, got, c.want)
		}
	}
}
