package apiserver

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAdmissionPlugins writes objects through the admission plugins that
// read other objects (LimitRanger, Priority): each case sets up what the
// plugin reads, then checks what a write answers and stores.
func TestAdmissionPlugins(t *testing.T) {
	const (
		pods = "/api/v1/namespaces/default/pods"
		lrs  = "/api/v1/namespaces/default/limitranges"
		pcs  = "/apis/scheduling.k8s.io/v1/priorityclasses"
		pvcs = "/api/v1/namespaces/default/persistentvolumeclaims"
		rqs  = "/api/v1/namespaces/default/resourcequotas"
		cms  = "/api/v1/namespaces/default/configmaps"
	)
	pod := func(name, spec string) string {
		return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + name + `"},"spec":` + spec + `}`
	}
	// write is a POST, or a PUT when body names the status subresource
	type write struct{ path, body string }
	cases := []struct {
		name   string
		setup  []write
		write  write
		code   int
		msg    string            // the Status message when not 201
		expect map[string]string // path in the stored object → JSON
	}{
		{name: "no class: priority 0, PreemptLowerPriority",
			write: write{pods, pod("p", `{"containers":[{"name":"a","image":"x"}]}`)}, code: 201,
			expect: map[string]string{"spec.priority": `0`, "spec.preemptionPolicy": `"PreemptLowerPriority"`, "spec.priorityClassName": `null`}},
		{name: "system class",
			write: write{pods, pod("p", `{"priorityClassName":"system-node-critical","containers":[{"name":"a","image":"x"}]}`)}, code: 201,
			expect: map[string]string{"spec.priority": `2000001000`}},
		{name: "missing class is 403",
			write: write{pods, pod("p", `{"priorityClassName":"gold","containers":[{"name":"a","image":"x"}]}`)}, code: 403,
			msg: `pods "p" is forbidden: no PriorityClass with name gold was found`},
		{name: "global default applies",
			setup: []write{{pcs, `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"low"},"value":7,"globalDefault":true,"preemptionPolicy":"Never"}`}},
			write: write{pods, pod("p", `{"containers":[{"name":"a","image":"x"}]}`)}, code: 201,
			expect: map[string]string{"spec.priority": `7`, "spec.priorityClassName": `"low"`, "spec.preemptionPolicy": `"Never"`}},
		{name: "priority given that differs is 403",
			write: write{pods, pod("p", `{"priority":5,"containers":[{"name":"a","image":"x"}]}`)}, code: 403,
			msg: `pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name`},
		{name: "second global default is 403",
			setup: []write{{pcs, `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"low"},"value":7,"globalDefault":true}`}},
			write: write{pcs, `{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"high"},"value":9,"globalDefault":true}`}, code: 403,
			msg: `priorityclasses.scheduling.k8s.io "high" is forbidden: PriorityClass low is already marked as default. Only one default can exist`},
		{name: "limit range defaults and annotation",
			setup: []write{{lrs, `{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr"},"spec":{"limits":[{"type":"Container","default":{"cpu":"500m","memory":"128Mi"},"defaultRequest":{"cpu":"100m"}}]}}`}},
			write: write{pods, pod("p", `{"initContainers":[{"name":"i","image":"x","resources":{"limits":{"cpu":"1"}}}],"containers":[{"name":"a","image":"x"}]}`)}, code: 201,
			expect: map[string]string{
				"spec.containers.0.resources":     `{"limits":{"cpu":"500m","memory":"128Mi"},"requests":{"cpu":"100m","memory":"128Mi"}}`,
				"spec.initContainers.0.resources": `{"limits":{"cpu":"1","memory":"128Mi"},"requests":{"cpu":"1","memory":"128Mi"}}`,
				"metadata.annotations":            `{"kubernetes.io/limit-ranger":"LimitRanger plugin set: cpu, memory request for container a; cpu, memory limit for container a; memory request for init container i; memory limit for init container i"}`,
				"status.qosClass":                 `"Burstable"`,
			}},
		{name: "limit range max is 403",
			setup: []write{{lrs, `{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr"},"spec":{"limits":[{"type":"Container","max":{"cpu":"1"}}]}}`}},
			write: write{pods, pod("p", `{"containers":[{"name":"a","image":"x","resources":{"limits":{"cpu":"2"}}}]}`)}, code: 403,
			msg: `pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2`},
		{name: "limit range min and ratio aggregate",
			setup: []write{{lrs, `{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr"},"spec":{"limits":[{"type":"Container","min":{"memory":"64Mi"},"maxLimitRequestRatio":{"cpu":"2"}}]}}`}},
			write: write{pods, pod("p", `{"containers":[{"name":"a","image":"x","resources":{"requests":{"cpu":"100m","memory":"32Mi"},"limits":{"cpu":"1"}}}]}`)}, code: 403,
			msg: `pods "p" is forbidden: [minimum memory usage per Container is 64Mi, but request is 32Mi, cpu max limit to request ratio per Container is 2, but provided ratio is 10.000000]`},
		{name: "pod limit on the sum",
			setup: []write{{lrs, `{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr"},"spec":{"limits":[{"type":"Pod","max":{"cpu":"1"}}]}}`}},
			write: write{pods, pod("p", `{"containers":[{"name":"a","image":"x","resources":{"limits":{"cpu":"600m"}}},{"name":"b","image":"x","resources":{"limits":{"cpu":"600m"}}}]}`)}, code: 403,
			msg: `pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m`},
		{name: "pvc storage min",
			setup: []write{{lrs, `{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr"},"spec":{"limits":[{"type":"PersistentVolumeClaim","min":{"storage":"1Gi"}}]}}`}},
			write: write{pvcs, `{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"c"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"100Mi"}}}}`}, code: 403,
			msg: `persistentvolumeclaims "c" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 100Mi`},
		{name: "quota without status (no controller) limits nothing",
			setup: []write{{rqs, `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"spec":{"hard":{"configmaps":"0"}},"status":{"hard":{"configmaps":"0"}}}`}},
			write: write{cms, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`}, code: 201},
		{name: "quota with hard but no used is 403",
			setup: []write{{rqs, `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"spec":{"hard":{"configmaps":"1","count/secrets":"1"}}}`},
				{rqs + "/q/status", `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"status":{"hard":{"configmaps":"1","count/secrets":"1"}}}`}},
			write: write{cms, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`}, code: 403,
			msg: `configmaps "c" is forbidden: status unknown for quota: q, resources: configmaps`},
		{name: "quota counts the create into used",
			setup: []write{{rqs, `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"spec":{"hard":{"count/configmaps":"2"}}}`},
				{rqs + "/q/status", `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"status":{"hard":{"count/configmaps":"2"},"used":{"count/configmaps":"1"}}}`},
				{cms, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`}},
			write: write{cms, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`}, code: 403,
			msg: `configmaps "c" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2`},
		{name: "quota constraints come first",
			setup: []write{{rqs, `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"spec":{"hard":{"limits.memory":"1Gi","requests.cpu":"1"}}}`},
				{rqs + "/q/status", `{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"status":{"hard":{"limits.memory":"1Gi","requests.cpu":"1"}}}`}},
			write: write{pods, pod("p", `{"containers":[{"name":"b","image":"x","resources":{"requests":{"cpu":"1"}}},{"name":"a","image":"x"}]}`)}, code: 403,
			msg: `pods "p" is forbidden: failed quota: q: must specify limits.memory for: a,b; requests.cpu for: a`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := New(Options{})
			for _, w := range c.setup {
				method, want := "POST", 201
				if strings.HasSuffix(w.path, "/status") {
					method, want = "PUT", 200
				}
				if code, out := do(t, s, method, w.path, "application/json", w.body); code != want {
					t.Fatalf("setup %s: %d %v", w.path, code, out)
				}
			}
			code, out := do(t, s, "POST", c.write.path, "application/json", c.write.body)
			if code != c.code {
				t.Fatalf("code %d, want %d: %v", code, c.code, out)
			}
			if c.msg != "" && out["message"] != c.msg {
				t.Errorf("message\n got %q\nwant %q", out["message"], c.msg)
			}
			for path, want := range c.expect {
				got, _ := json.Marshal(pick(out, path))
				if string(got) != want {
					t.Errorf("%s = %s, want %s", path, got, want)
				}
			}
		})
	}
}

// pick follows a dotted path of keys and list indexes.
func pick(v any, path string) any {
	for _, k := range splitDots(path) {
		switch t := v.(type) {
		case map[string]any:
			v = t[k]
		case []any:
			i := 0
			for _, ch := range k {
				i = i*10 + int(ch-'0')
			}
			if i >= len(t) {
				return nil
			}
			v = t[i]
		default:
			return nil
		}
	}
	return v
}

func splitDots(p string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i == len(p) || p[i] == '.' {
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return out
}
