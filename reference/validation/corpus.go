package validation

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Kind is one kind of the corpus: a valid object and where its PodSpec is.
type Kind struct {
	Name    string
	GVK     schema.GroupVersionKind
	Plural  string
	Base    string // a valid object, JSON
	PodSpec string // dotted path of the pod spec ("" if none)
	Own     []Mut  // kind-specific mutations
	Cluster bool   // cluster-scoped
}

// Mut sets (or, with Del, removes) the value at a dotted path; a number
// element indexes a list.
type Mut struct {
	Path string
	Val  any
	Del  bool
	Also []Mut // applied with it (a PV source set and the base's removed)
}

func (m Mut) String() string {
	s := "-" + m.Path
	if !m.Del {
		b, _ := json.Marshal(m.Val)
		s = m.Path + "=" + string(b)
	}
	for _, a := range m.Also {
		s += "&" + a.String()
	}
	return s
}

const ctr = `{"name":"app","image":"nginx:1.27"}`

func podSpec(extra string) string {
	return `{"containers":[` + ctr + `]` + extra + `}`
}

func tmpl(labels, spec string) string {
	return `{"metadata":{"labels":` + labels + `},"spec":` + spec + `}`
}

// Kinds is the corpus.
var Kinds = []*Kind{
	{Name: "Pod", GVK: schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, Plural: "pods", PodSpec: "spec",
		Base: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"app":"web"}},"spec":` +
			podSpec(`,"volumes":[{"name":"data","emptyDir":{}}]`) + `}`},
	{Name: "Deployment", GVK: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, Plural: "deployments", PodSpec: "spec.template.spec",
		Base: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":` +
			tmpl(`{"app":"web"}`, podSpec("")) + `}}`,
		Own: []Mut{
			{Path: "spec.selector", Del: true}, {Path: "spec.selector", Val: map[string]any{}},
			{Path: "spec.selector.matchLabels.app", Val: "other"}, {Path: "spec.template.metadata.labels", Del: true},
			{Path: "spec.replicas", Val: -1}, {Path: "spec.minReadySeconds", Val: -5},
			{Path: "spec.strategy.type", Val: "Recreate"}, {Path: "spec.strategy", Val: map[string]any{"type": "Blue"}},
			{Path: "spec.strategy.rollingUpdate", Val: map[string]any{"maxUnavailable": 0, "maxSurge": 0}},
			{Path: "spec.strategy.rollingUpdate", Val: map[string]any{"maxUnavailable": "120%", "maxSurge": "x"}},
			{Path: "spec.revisionHistoryLimit", Val: -1}, {Path: "spec.progressDeadlineSeconds", Val: 0},
			{Path: "spec.selector.matchExpressions", Val: []any{map[string]any{"key": "tier", "operator": "In"}}},
			{Path: "spec.selector.matchExpressions", Val: []any{map[string]any{"key": "tier", "operator": "Near", "values": []any{"a"}}}},
			{Path: "spec.selector.matchLabels", Val: map[string]any{"bad key!": "v"}},
			{Path: "spec.template.spec.restartPolicy", Val: "Never"},
			{Path: "spec.template.spec.activeDeadlineSeconds", Val: 10},
		}},
	{Name: "ReplicaSet", GVK: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ReplicaSet"}, Plural: "replicasets", PodSpec: "spec.template.spec",
		Base: `{"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"rs"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":` +
			tmpl(`{"app":"web"}`, podSpec("")) + `}}`,
		Own: []Mut{{Path: "spec.selector", Del: true}, {Path: "spec.replicas", Val: -2}, {Path: "spec.template.metadata.labels.app", Val: "x"}}},
	{Name: "ReplicationController", GVK: schema.GroupVersionKind{Version: "v1", Kind: "ReplicationController"}, Plural: "replicationcontrollers", PodSpec: "spec.template.spec",
		Base: `{"apiVersion":"v1","kind":"ReplicationController","metadata":{"name":"rc"},"spec":{"replicas":1,"selector":{"app":"web"},"template":` +
			tmpl(`{"app":"web"}`, podSpec("")) + `}}`,
		Own: []Mut{{Path: "spec.selector", Del: true}, {Path: "spec.selector", Val: map[string]any{}}, {Path: "spec.selector.app", Val: "x"},
			{Path: "spec.selector.tier", Val: "web"}, {Path: "spec.selector", Val: map[string]any{"bad key!": "v"}},
			{Path: "spec.replicas", Val: -2}, {Path: "spec.minReadySeconds", Val: -1}, {Path: "spec.template", Del: true},
			{Path: "spec.template.metadata.labels", Del: true}, {Path: "spec.template.metadata.labels.app", Val: "x"},
			{Path: "spec.template.spec.restartPolicy", Val: "OnFailure"}, {Path: "spec.template.spec.activeDeadlineSeconds", Val: 10},
			{Path: "metadata.name", Val: "Bad_Name"}, {Path: "metadata.labels", Val: map[string]any{"bad key!": "v"}},
			{Path: "status.readyReplicas", Val: 3}}},
	{Name: "DaemonSet", GVK: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "DaemonSet"}, Plural: "daemonsets", PodSpec: "spec.template.spec",
		Base: `{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"ds"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":` +
			tmpl(`{"app":"web"}`, podSpec("")) + `}}`,
		Own: []Mut{{Path: "spec.selector", Del: true}, {Path: "spec.selector", Val: map[string]any{}},
			{Path: "spec.updateStrategy", Val: map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{"maxUnavailable": 1, "maxSurge": 1}}},
			{Path: "spec.updateStrategy", Val: map[string]any{"type": "Sometimes"}}}},
	{Name: "StatefulSet", GVK: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "StatefulSet"}, Plural: "statefulsets", PodSpec: "spec.template.spec",
		Base: `{"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"sts"},"spec":{"serviceName":"web","selector":{"matchLabels":{"app":"web"}},"template":` +
			tmpl(`{"app":"web"}`, `{"containers":[{"name":"app","image":"nginx","volumeMounts":[{"name":"www","mountPath":"/www"}]}]}`) +
			`,"volumeClaimTemplates":[{"metadata":{"name":"www"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}]}}`,
		Own: []Mut{{Path: "spec.selector", Del: true}, {Path: "spec.podManagementPolicy", Val: "Random"},
			{Path: "spec.serviceName", Val: "Bad_Name"}, {Path: "spec.updateStrategy", Val: map[string]any{"type": "Never"}},
			{Path: "spec.updateStrategy.rollingUpdate", Val: map[string]any{"partition": -1, "maxUnavailable": 0}},
			{Path: "spec.persistentVolumeClaimRetentionPolicy.whenDeleted", Val: "Keep"}}},
	{Name: "Job", GVK: schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"}, Plural: "jobs", PodSpec: "spec.template.spec",
		Base: `{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"spec":{"template":` +
			tmpl(`{"app":"batch"}`, podSpec(`,"restartPolicy":"Never"`)) + `}}`,
		Own: []Mut{{Path: "spec.template.spec.restartPolicy", Val: "Always"}, {Path: "spec.template.spec.restartPolicy", Del: true},
			{Path: "spec.parallelism", Val: -1}, {Path: "spec.completions", Val: -1}, {Path: "spec.backoffLimit", Val: -3},
			{Path: "spec.completionMode", Val: "Indexed"}, {Path: "spec.completionMode", Val: "Sometimes"},
			{Path: "spec.manualSelector", Val: true}, {Path: "spec.selector", Val: map[string]any{"matchLabels": map[string]any{"app": "batch"}}},
			{Path: "spec.maxFailedIndexes", Val: 2}, {Path: "spec.backoffLimitPerIndex", Val: 1},
			{Path: "spec.podReplacementPolicy", Val: "Whenever"}, {Path: "spec.ttlSecondsAfterFinished", Val: -1},
			{Path: "spec.template.metadata.labels.job-name", Val: "other"}}},
	{Name: "CronJob", GVK: schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "CronJob"}, Plural: "cronjobs", PodSpec: "spec.jobTemplate.spec.template.spec",
		Base: `{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"cj"},"spec":{"schedule":"*/5 * * * *","jobTemplate":{"spec":{"template":` +
			tmpl(`{"app":"cron"}`, podSpec(`,"restartPolicy":"OnFailure"`)) + `}}}}`,
		Own: []Mut{{Path: "spec.schedule", Val: "* * * *"}, {Path: "spec.schedule", Val: "61 * * * *"}, {Path: "spec.schedule", Del: true},
			{Path: "spec.schedule", Val: "TZ=UTC 0 * * * *"}, {Path: "spec.schedule", Val: "@weekly"}, {Path: "spec.schedule", Val: "@every 5m"},
			{Path: "spec.timeZone", Val: "Mars/Olympus"}, {Path: "spec.timeZone", Val: "Europe/Paris"}, {Path: "spec.timeZone", Val: ""},
			{Path: "spec.timeZone", Val: "Local"},
			{Path: "spec.concurrencyPolicy", Val: "Sometimes"}, {Path: "spec.startingDeadlineSeconds", Val: -1},
			{Path: "spec.successfulJobsHistoryLimit", Val: -1}, {Path: "spec.jobTemplate.spec.selector", Val: map[string]any{"matchLabels": map[string]any{"a": "b"}}},
			{Path: "spec.jobTemplate.spec.manualSelector", Val: true}, {Path: "metadata.name", Val: strings.Repeat("c", 53)}}},
	{Name: "Service", GVK: schema.GroupVersionKind{Version: "v1", Kind: "Service"}, Plural: "services",
		Base: `{"apiVersion":"v1","kind":"Service","metadata":{"name":"svc"},"spec":{"selector":{"app":"web"},"ports":[{"name":"http","port":80,"targetPort":8080}]}}`,
		Own: []Mut{{Path: "spec.ports", Val: []any{}}, {Path: "spec.ports", Del: true},
			{Path: "spec.ports.0.port", Val: 0}, {Path: "spec.ports.0.port", Val: 70000}, {Path: "spec.ports.0.protocol", Val: "ICMP"},
			{Path: "spec.ports.0.name", Val: "Bad_Name"}, {Path: "spec.ports.0.targetPort", Val: "Bad Name"}, {Path: "spec.ports.0.targetPort", Val: 70000},
			{Path: "spec.ports.1", Val: map[string]any{"port": 81}}, {Path: "spec.ports.1", Val: map[string]any{"name": "http", "port": 80}},
			{Path: "spec.ports.0.appProtocol", Val: "bad proto!"}, {Path: "spec.selector", Val: map[string]any{"app": "bad value!"}},
			{Path: "spec.sessionAffinity", Val: "Sticky"}, {Path: "spec.sessionAffinity", Val: "ClientIP"},
			{Path: "spec.sessionAffinityConfig", Val: map[string]any{"clientIP": map[string]any{"timeoutSeconds": 0}}},
			{Path: "spec.type", Val: "Fancy"}, {Path: "spec.type", Val: "NodePort"}, {Path: "spec.ports.0.nodePort", Val: 30080},
			{Path: "spec.allocateLoadBalancerNodePorts", Val: true}}},
	{Name: "ConfigMap", GVK: schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, Plural: "configmaps",
		Base: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"a.conf":"x=1","B_KEY":"y"}}`,
		Own: []Mut{{Path: "data.bad key", Val: "v"}, {Path: "data..hidden", Val: "v"}, {Path: "data...", Val: "v"},
			{Path: "binaryData.a.conf", Val: "eHl6"}, {Path: "binaryData.bin", Val: "eHl6"}, {Path: "data.big", Val: strings.Repeat("x", 1<<20)},
			{Path: "immutable", Val: true}}},
	{Name: "Secret", GVK: schema.GroupVersionKind{Version: "v1", Kind: "Secret"}, Plural: "secrets",
		Base: `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"password":"aHVudGVyMg=="}}`,
		Own: []Mut{{Path: "data.bad/key", Val: "eHl6"}, {Path: "type", Val: "kubernetes.io/tls"}, {Path: "type", Val: "kubernetes.io/basic-auth"},
			{Path: "type", Val: "kubernetes.io/ssh-auth"}, {Path: "type", Val: "kubernetes.io/dockerconfigjson"},
			{Path: "type", Val: "kubernetes.io/service-account-token"}, {Path: "stringData.user name", Val: "x"},
			{Path: "type", Val: "example.com/custom"}, {Path: "immutable", Val: true}}},
}

// podMuts are the mutations of a PodSpec, relative to it.
var podMuts = []Mut{
	{Path: "containers", Val: []any{}}, {Path: "containers", Del: true},
	{Path: "containers.0.image", Del: true}, {Path: "containers.0.image", Val: " nginx "}, {Path: "containers.0.name", Del: true},
	{Path: "containers.0.name", Val: "App_1"}, {Path: "containers.1", Val: map[string]any{"name": "app", "image": "busybox"}},
	{Path: "containers.0.ports", Val: []any{map[string]any{"containerPort": 0}}},
	{Path: "containers.0.ports", Val: []any{map[string]any{"containerPort": 70000, "hostPort": -1, "name": "HTTP"}}},
	{Path: "containers.0.ports", Val: []any{map[string]any{"containerPort": 80, "name": "web", "protocol": "ICMP"}, map[string]any{"containerPort": 81, "name": "web"}}},
	{Path: "containers.0.ports", Val: []any{map[string]any{"containerPort": 80, "hostPort": 8080}, map[string]any{"containerPort": 81, "hostPort": 8080}}},
	{Path: "containers.0.ports", Val: []any{map[string]any{"containerPort": 80, "name": "a-very-long-port-name-x"}}},
	{Path: "containers.0.env", Val: []any{map[string]any{"name": ""}, map[string]any{"name": "A=B"}, map[string]any{"name": "OK", "value": "v"}}},
	{Path: "containers.0.env", Val: []any{map[string]any{"name": "X", "valueFrom": map[string]any{}}}},
	{Path: "containers.0.env", Val: []any{map[string]any{"name": "X", "value": "v", "valueFrom": map[string]any{"configMapKeyRef": map[string]any{"name": "cm", "key": "k"}}}}},
	{Path: "containers.0.env", Val: []any{map[string]any{"name": "X", "valueFrom": map[string]any{"secretKeyRef": map[string]any{"name": "Bad_Name", "key": "bad key"}}}}},
	{Path: "containers.0.env", Val: []any{map[string]any{"name": "X", "valueFrom": map[string]any{"fieldRef": map[string]any{"fieldPath": "spec.nodeName"}}}}},
	{Path: "containers.0.env", Val: []any{map[string]any{"name": "X", "valueFrom": map[string]any{"fieldRef": map[string]any{"apiVersion": "v1", "fieldPath": "status.phase"}}}}},
	{Path: "containers.0.env", Val: []any{map[string]any{"name": "X", "valueFrom": map[string]any{"fieldRef": map[string]any{"apiVersion": "v1", "fieldPath": "spec.bogus"}}}}},
	{Path: "containers.0.envFrom", Val: []any{map[string]any{}, map[string]any{"prefix": "P=", "configMapRef": map[string]any{"name": ""}}}},
	{Path: "containers.0.volumeMounts", Val: []any{map[string]any{"name": "nope", "mountPath": "/a"}, map[string]any{"name": "", "mountPath": "/a"}}},
	{Path: "containers.0.volumeMounts", Val: []any{map[string]any{"name": "data", "mountPath": ""}}},
	{Path: "containers.0.volumeMounts", Val: []any{map[string]any{"name": "data", "mountPath": "/d", "subPath": "../x"}}},
	{Path: "containers.0.imagePullPolicy", Val: "Sometimes"},
	{Path: "containers.0.terminationMessagePolicy", Val: "Loud"},
	{Path: "containers.0.resources", Val: map[string]any{"limits": map[string]any{"cpu": "500m", "memory": "1Gi"}, "requests": map[string]any{"cpu": "1", "memory": "2Gi"}}},
	{Path: "containers.0.resources", Val: map[string]any{"requests": map[string]any{"cpu": "-1", "gpu": "1", "example.com/dongle": "500m"}}},
	{Path: "containers.0.resources", Val: map[string]any{"limits": map[string]any{"memory": "1.5Gi"}, "requests": map[string]any{"memory": "2000Mi"}}},
	{Path: "containers.0.resources", Val: map[string]any{"limits": map[string]any{"hugepages-2Mi": "2Mi"}}},
	{Path: "containers.0.livenessProbe", Val: map[string]any{}},
	{Path: "containers.0.livenessProbe", Val: map[string]any{"httpGet": map[string]any{"port": 0}, "exec": map[string]any{"command": []any{"true"}}, "successThreshold": 2}},
	{Path: "containers.0.readinessProbe", Val: map[string]any{"tcpSocket": map[string]any{"port": "http"}, "periodSeconds": -1, "terminationGracePeriodSeconds": 5}},
	{Path: "containers.0.startupProbe", Val: map[string]any{"grpc": map[string]any{"port": 70000}, "failureThreshold": -1}},
	{Path: "containers.0.lifecycle", Val: map[string]any{"preStop": map[string]any{"sleep": map[string]any{"seconds": 100}}, "postStart": map[string]any{}}},
	{Path: "containers.0.securityContext", Val: map[string]any{"runAsUser": -1, "procMount": "Odd", "seccompProfile": map[string]any{"type": "Localhost"}}},
	{Path: "initContainers", Val: []any{map[string]any{"name": "app", "image": "busybox", "livenessProbe": map[string]any{"exec": map[string]any{"command": []any{"x"}}}}}},
	{Path: "initContainers", Val: []any{map[string]any{"name": "init", "image": "busybox", "restartPolicy": "Always", "readinessProbe": map[string]any{}}}},
	{Path: "volumes", Val: []any{map[string]any{"name": "v"}, map[string]any{"name": "Bad_Vol", "emptyDir": map[string]any{}}}},
	{Path: "volumes", Val: []any{map[string]any{"name": "v", "emptyDir": map[string]any{}, "hostPath": map[string]any{"path": "/x"}, "secret": map[string]any{}}}},
	{Path: "volumes", Val: []any{map[string]any{"name": "v", "configMap": map[string]any{"items": []any{map[string]any{"key": "", "path": "../x"}}}}}},
	{Path: "volumes", Val: []any{map[string]any{"name": "v", "persistentVolumeClaim": map[string]any{}}, map[string]any{"name": "v", "emptyDir": map[string]any{}}}},
	{Path: "volumes", Val: []any{map[string]any{"name": "v", "hostPath": map[string]any{"path": "/x", "type": "Tunnel"}}}},
	{Path: "restartPolicy", Val: "Sometimes"}, {Path: "dnsPolicy", Val: "Google"}, {Path: "dnsPolicy", Val: "None"},
	{Path: "nodeSelector", Val: map[string]any{"disk": "ssd!"}}, {Path: "serviceAccountName", Val: "Bad_SA"},
	{Path: "activeDeadlineSeconds", Val: 0}, {Path: "hostname", Val: "Host_1"}, {Path: "subdomain", Val: "sub.domain"},
	{Path: "terminationGracePeriodSeconds", Val: -1}, {Path: "priorityClassName", Val: "Bad_PC"},
	{Path: "tolerations", Val: []any{map[string]any{"operator": "Equal", "value": "x"}, map[string]any{"key": "k", "operator": "Maybe", "effect": "Boom"}}},
	{Path: "tolerations", Val: []any{map[string]any{"key": "k", "operator": "Exists", "value": "v", "tolerationSeconds": 5}}},
	{Path: "securityContext", Val: map[string]any{"runAsGroup": -5, "fsGroup": 3000000000, "supplementalGroups": []any{-1}}},
	{Path: "hostNetwork", Val: true}, {Path: "os", Val: map[string]any{"name": "plan9"}},
	{Path: "imagePullSecrets", Val: []any{map[string]any{}}}, {Path: "nodeName", Val: "Node_1"},
	{Path: "readinessGates", Val: []any{map[string]any{"conditionType": "bad type!"}}},
}

// Mutations are the kind's own and its pod spec's.
func (k *Kind) Mutations() []Mut {
	muts := append([]Mut(nil), k.Own...)
	if k.PodSpec != "" {
		for _, m := range podMuts {
			m.Path = k.PodSpec + "." + m.Path
			muts = append(muts, m)
		}
	}
	return append(muts, Mut{Path: "metadata.labels", Val: map[string]any{"bad label!": "x"}},
		Mut{Path: "metadata.annotations", Val: map[string]any{"Bad Key": "x"}})
}

// Case is one object to create: the base with some mutations.
type Case struct {
	ID   string
	Obj  map[string]any
	Muts []Mut
}

// Cases returns n cases: the base, each mutation alone, then random
// combinations of two or three mutations from a fixed seed.
func (k *Kind) Cases(n int, seed uint64) []Case {
	muts := k.Mutations()
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	var out []Case
	add := func(ms []Mut) {
		obj := k.base()
		var names []string
		for _, m := range ms {
			apply(obj, m)
			names = append(names, m.String())
		}
		id := k.Name + "[" + strconv.Itoa(len(out)) + "]"
		if len(names) > 0 {
			id += " " + strings.Join(names, " ")
		}
		if len(id) > 300 {
			id = id[:300] + "…"
		}
		out = append(out, Case{ID: id, Obj: obj, Muts: ms})
	}
	add(nil)
	for _, m := range muts {
		add([]Mut{m})
	}
	for len(out) < n {
		c := 2 + r.IntN(2)
		var ms []Mut
		for i := 0; i < c; i++ {
			ms = append(ms, muts[r.IntN(len(muts))])
		}
		add(ms)
	}
	return out[:n]
}

func (k *Kind) base() map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(k.Base), &m); err != nil {
		panic(fmt.Sprintf("%s: %v", k.Name, err))
	}
	return m
}

// apply performs one mutation on a JSON tree (creating objects on the way).
func apply(obj map[string]any, m Mut) {
	for _, a := range m.Also {
		defer apply(obj, a)
	}
	parts := splitPath(m.Path)
	var cur any = obj
	for i, p := range parts {
		last := i == len(parts)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				if m.Del {
					delete(c, p)
				} else {
					c[p] = deepCopy(m.Val)
				}
				return
			}
			next := c[p]
			if l, ok := next.([]any); ok && i+2 == len(parts) && !m.Del {
				if idx, err := strconv.Atoi(parts[i+1]); err == nil && idx == len(l) {
					c[p] = append(l, deepCopy(m.Val))
					return
				}
			}
			if next == nil {
				if _, err := strconv.Atoi(parts[i+1]); err == nil {
					next = []any{}
				} else {
					next = map[string]any{}
				}
				c[p] = next
			}
			cur = next
		case []any:
			idx, _ := strconv.Atoi(p)
			if idx >= len(c) {
				return // only existing elements and appends at the parent level
			}
			if last {
				if !m.Del {
					c[idx] = deepCopy(m.Val)
				}
				return
			}
			cur = c[idx]
		default:
			return
		}
	}
}

// splitPath splits on dots.
func splitPath(p string) []string {
	// data keys may hold dots: a path under data/binaryData/stringData
	// keeps the rest as one key
	for _, pre := range []string{"data.", "binaryData.", "stringData."} {
		if strings.HasPrefix(p, pre) {
			return []string{strings.TrimSuffix(pre, "."), p[len(pre):]}
		}
	}
	// so do resource lists (spec.hard.requests.cpu, status.capacity.storage)
	for _, pre := range []string{"spec.hard.", "status.hard.", "status.used.", "spec.capacity.", "status.capacity.", "status.allocatable."} {
		if strings.HasPrefix(p, pre) {
			return append(strings.Split(strings.TrimSuffix(pre, "."), "."), p[len(pre):])
		}
	}
	return strings.Split(p, ".")
}

func deepCopy(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
