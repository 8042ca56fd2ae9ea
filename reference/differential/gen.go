package differential

import (
	"fmt"
	"math/rand/v2"
)

// Kind is one kind of the corpus.
type Kind struct {
	Name, APIVersion, Group, Plural string
	CRD                             bool
	podSpec                         []string // path of the PodSpec, if any
}

// The corpus kinds.
var (
	Pod        = &Kind{Name: "Pod", APIVersion: "v1", Plural: "pods", podSpec: []string{"spec"}}
	Deployment = &Kind{Name: "Deployment", APIVersion: "apps/v1", Group: "apps", Plural: "deployments", podSpec: []string{"spec", "template", "spec"}}
	Service    = &Kind{Name: "Service", APIVersion: "v1", Plural: "services"}
	Widget     = &Kind{Name: "Widget", APIVersion: WidgetGroup + "/v1", Group: WidgetGroup, Plural: "widgets", CRD: true}

	BuiltinKinds = []*Kind{Pod, Deployment, Service}
	AllKinds     = []*Kind{Pod, Deployment, Service, Widget}
)

// Gen draws corpus values from a deterministic seed.
type Gen struct{ r *rand.Rand }

// NewGen returns a generator for seed; the same seed gives the same corpus.
func NewGen(seed uint64) *Gen { return &Gen{rand.New(rand.NewPCG(seed, 0x6b75626573616e64))} }

func (g *Gen) chance(p float64) bool { return g.r.Float64() < p }
func (g *Gen) intn(n int) int        { return g.r.IntN(n) }

func pick[T any](g *Gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

// some returns between lo and hi distinct elements of xs in random order.
func some[T any](g *Gen, xs []T, lo, hi int) []T {
	if hi > len(xs) {
		hi = len(xs)
	}
	n := lo + g.r.IntN(hi-lo+1)
	out := make([]T, 0, n)
	for _, i := range g.r.Perm(len(xs))[:n] {
		out = append(out, xs[i])
	}
	return out
}

type obj = map[string]any

var (
	containerNames = []string{"web", "sidecar", "proxy", "db"}
	images         = []string{"nginx:1.27", "nginx:1.28", "busybox", "envoy:v1"}
	containerPorts = []int{80, 443, 8080, 9090}
	envNames       = []string{"A", "B", "C", "D"}
	envValues      = []string{"1", "x", "y"}
	volumeNames    = []string{"data", "cfg", "cache"}
	labelKeys      = []string{"app", "tier", "env", "team"}
	labelValues    = []string{"web", "fe", "prod", "dev", "a"}
	annotationKeys = []string{"example.com/owner", "note", "example.com/rev"}
	finalizers     = []string{"example.com/a", "example.com/b", "example.com/c", "kubernetes.io/pv-protection"}
	servicePorts   = []int{80, 443, 53, 8080}
	widgetPorts    = []string{"http", "https", "metrics"}
	tags           = []string{"a", "b", "c", "d"}
	args           = []string{"--v=2", "--port=80", "--debug"}
)

func (g *Gen) stringMap(keys, values []string, lo, hi int) obj {
	m := obj{}
	for _, k := range some(g, keys, lo, hi) {
		m[k] = pick(g, values)
	}
	return m
}

func (g *Gen) meta(k *Kind) obj {
	m := obj{"name": "x", "namespace": "default"}
	if g.chance(0.7) {
		m["labels"] = g.stringMap(labelKeys, labelValues, 1, 3)
	}
	if g.chance(0.5) {
		m["annotations"] = g.stringMap(annotationKeys, labelValues, 1, 2)
	}
	if g.chance(0.5) {
		m["finalizers"] = toAny(some(g, finalizers, 1, 3))
	}
	return m
}

func toAny[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func (g *Gen) containerPort(p int) obj {
	o := obj{"containerPort": p}
	if g.chance(0.5) {
		o["name"] = fmt.Sprintf("p%d", p)
	}
	if g.chance(0.6) {
		o["protocol"] = pick(g, []string{"TCP", "TCP", "UDP"})
	}
	return o
}

func (g *Gen) container(name string) obj {
	c := obj{"name": name, "image": pick(g, images)}
	if g.chance(0.6) {
		var ps []any
		for _, p := range some(g, containerPorts, 1, 3) {
			ps = append(ps, g.containerPort(p))
		}
		c["ports"] = ps
	}
	if g.chance(0.6) {
		var env []any
		for _, n := range some(g, envNames, 1, 3) {
			env = append(env, obj{"name": n, "value": pick(g, envValues)})
		}
		c["env"] = env
	}
	if g.chance(0.5) {
		var vm []any
		for _, n := range some(g, volumeNames, 1, 2) {
			vm = append(vm, obj{"name": n, "mountPath": "/mnt/" + n})
		}
		c["volumeMounts"] = vm
	}
	if g.chance(0.3) {
		c["args"] = toAny(some(g, args, 1, 3))
	}
	return c
}

func (g *Gen) volume(name string) obj {
	switch g.intn(3) {
	case 0:
		return obj{"name": name, "emptyDir": obj{}}
	case 1:
		return obj{"name": name, "configMap": obj{"name": "cm-" + name}}
	}
	return obj{"name": name, "secret": obj{"secretName": "s-" + name}}
}

func (g *Gen) toleration() obj {
	if g.chance(0.3) {
		return obj{"operator": "Exists"}
	}
	return obj{"key": pick(g, []string{"k1", "k2"}), "operator": "Equal", "value": pick(g, labelValues), "effect": "NoSchedule"}
}

func (g *Gen) podSpec() obj {
	s := obj{}
	var cs []any
	for _, n := range some(g, containerNames, 1, 3) {
		cs = append(cs, g.container(n))
	}
	s["containers"] = cs
	if g.chance(0.6) {
		var vs []any
		for _, n := range some(g, volumeNames, 1, 3) {
			vs = append(vs, g.volume(n))
		}
		s["volumes"] = vs
	}
	if g.chance(0.4) {
		var ts []any
		for i := 0; i < 1+g.intn(2); i++ {
			ts = append(ts, g.toleration())
		}
		s["tolerations"] = ts
	}
	if g.chance(0.4) {
		s["nodeSelector"] = g.stringMap([]string{"disk", "zone"}, []string{"ssd", "hdd", "a"}, 1, 2)
	}
	if g.chance(0.3) {
		s["restartPolicy"] = pick(g, []string{"Always", "Never"})
	}
	return s
}

func (g *Gen) strategy() obj {
	if g.chance(0.5) {
		return obj{"type": "Recreate"}
	}
	return obj{"type": "RollingUpdate", "rollingUpdate": obj{"maxSurge": pick(g, []any{1, "25%"}), "maxUnavailable": 0}}
}

func (g *Gen) servicePort(p int) obj {
	o := obj{"port": p, "name": fmt.Sprintf("p%d", p)}
	if g.chance(0.6) {
		o["protocol"] = pick(g, []string{"TCP", "UDP"})
	}
	if g.chance(0.6) {
		o["targetPort"] = pick(g, []any{p + 1, "http"})
	}
	return o
}

func (g *Gen) serviceSpec() obj {
	s := obj{"selector": g.stringMap(labelKeys, labelValues, 1, 2)}
	var ps []any
	for _, p := range some(g, servicePorts, 1, 3) {
		ps = append(ps, g.servicePort(p))
	}
	s["ports"] = ps
	if g.chance(0.5) {
		s["type"] = pick(g, []string{"ClusterIP", "NodePort"})
	}
	if g.chance(0.3) {
		s["sessionAffinity"] = "ClientIP"
	}
	return s
}

func (g *Gen) widgetPort(n string) obj {
	o := obj{"name": n, "port": 1 + g.intn(9000)}
	if g.chance(0.5) {
		o["protocol"] = pick(g, []string{"TCP", "UDP"})
	}
	return o
}

func (g *Gen) widgetSpec() obj {
	s := obj{}
	if g.chance(0.7) {
		s["replicas"] = g.intn(5)
	}
	if g.chance(0.6) {
		s["color"] = pick(g, []string{"red", "green", "blue"})
	}
	if g.chance(0.4) {
		s["size"] = pick(g, []string{"s", "m", "xl"})
	}
	if g.chance(0.5) {
		s["tags"] = toAny(some(g, tags, 0, 3))
	}
	if g.chance(0.6) {
		var ps []any
		for _, n := range some(g, widgetPorts, 1, 3) {
			ps = append(ps, g.widgetPort(n))
		}
		s["ports"] = ps
	}
	if g.chance(0.5) {
		s["config"] = g.stringMap([]string{"a", "b", "c"}, envValues, 1, 3)
	}
	if g.chance(0.4) {
		s["extra"] = obj{"x": obj{"y": g.intn(3)}, "l": []any{1, "two"}}
	}
	return s
}

// Object returns a random object of kind k.
func (g *Gen) Object(k *Kind) obj {
	o := obj{"apiVersion": k.APIVersion, "kind": k.Name, "metadata": g.meta(k)}
	switch k {
	case Pod:
		o["spec"] = g.podSpec()
	case Deployment:
		spec := obj{"selector": obj{"matchLabels": obj{"app": "web"}},
			"template": obj{"metadata": obj{"labels": obj{"app": "web"}}, "spec": g.podSpec()}}
		if g.chance(0.7) {
			spec["replicas"] = 1 + g.intn(4)
		}
		if g.chance(0.6) {
			spec["strategy"] = g.strategy()
		}
		o["spec"] = spec
	case Service:
		o["spec"] = g.serviceSpec()
	case Widget:
		o["spec"] = g.widgetSpec()
		if g.chance(0.3) {
			o["status"] = obj{"phase": pick(g, []string{"Ready", "Pending"})}
		}
	}
	return o
}

// ---- helpers over generated objects ----

// at walks maps by keys.
func at(o any, path ...string) any {
	for _, k := range path {
		m, ok := o.(obj)
		if !ok {
			return nil
		}
		o = m[k]
	}
	return o
}

// setIn sets path in m, creating maps on the way.
func setIn(m obj, path []string, v any) {
	for _, k := range path[:len(path)-1] {
		next, ok := m[k].(obj)
		if !ok {
			next = obj{}
			m[k] = next
		}
		m = next
	}
	m[path[len(path)-1]] = v
}

func join(a []string, b ...string) []string {
	return append(append([]string(nil), a...), b...)
}

// keysOf lists the values of key in the maps of list l.
func keysOf(l any, key string) []any {
	var out []any
	ls, _ := l.([]any)
	for _, e := range ls {
		if m, ok := e.(obj); ok {
			if v, ok := m[key]; ok {
				out = append(out, v)
			}
		}
	}
	return out
}

func shuffled(g *Gen, xs []any) []any {
	out := append([]any(nil), xs...)
	g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
