package differential

import "encoding/json"

// Step is one write of an apply sequence.
type Step struct {
	// Op: "create" (Update of a new object, Body the object), "apply"
	// (Body the configuration), "update" (Body a patch applied to the live
	// object with the reference library: strategic for built-in kinds,
	// merge for the CRD; the patched object goes to Update).
	Op          string
	Manager     string
	Subresource string
	Force       bool
	Body        []byte
}

// Sequence is one SSA case: steps on one object.
type Sequence struct {
	ID    string
	Kind  *Kind
	Steps []Step
}

var appliers = []string{"alice", "bob", "carol"}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// Sequence returns 3–6 steps: a create (by Update or by apply), then
// applies by 2–3 managers with overlapping configurations, with and
// without force, interleaved with Updates by other managers, a reset of
// managedFields now and then, and status writes for the CRD.
func (g *Gen) Sequence(id string, k *Kind) Sequence {
	s := Sequence{ID: id, Kind: k}
	managers := some(g, appliers, 2, 3)
	switch r := g.intn(10); {
	case r < 2:
		// kubectl client-side apply created it; "kubectl" then applies
		// server-side and may take over what the annotation lists.
		o := g.ApplyConfig(k)
		delete(o["metadata"].(obj), "managedFields")
		last := string(mustJSON(o))
		md := o["metadata"].(obj)
		ann, _ := md["annotations"].(obj)
		if ann == nil {
			ann = obj{}
			md["annotations"] = ann
		}
		ann["kubectl.kubernetes.io/last-applied-configuration"] = last
		s.Steps = append(s.Steps, Step{Op: "create", Manager: "kubectl-client-side-apply", Body: mustJSON(o)})
		managers = append(managers[:1], "kubectl")
	case r < 6:
		s.Steps = append(s.Steps, Step{Op: "create", Manager: "creator", Body: mustJSON(g.Object(k))})
	default:
		s.Steps = append(s.Steps, Step{Op: "apply", Manager: managers[0], Body: mustJSON(g.ApplyConfig(k))})
	}
	n := 2 + g.intn(4)
	for i := 0; i < n; i++ {
		switch r := g.intn(20); {
		case r < 12:
			s.Steps = append(s.Steps, Step{Op: "apply", Manager: pick(g, managers), Force: g.chance(0.3), Body: mustJSON(g.ApplyConfig(k))})
		case r < 17:
			s.Steps = append(s.Steps, Step{Op: "update", Manager: pick(g, []string{"editor", "controller"}), Body: mustJSON(g.Mutation(k))})
		case r < 18:
			reset := obj{"metadata": obj{"managedFields": []any{}}}
			if k.CRD {
				reset = obj{"metadata": obj{"managedFields": []any{obj{}}}}
			}
			s.Steps = append(s.Steps, Step{Op: "update", Manager: "resetter", Body: mustJSON(reset)})
		default:
			if k.CRD {
				st := obj{"status": obj{"phase": pick(g, []string{"Ready", "Failed"}), "replicas": g.intn(3)}}
				if g.chance(0.3) {
					st["spec"] = obj{"color": "red"} // ignored on the status subresource
				}
				s.Steps = append(s.Steps, Step{Op: "update", Manager: "status-writer", Subresource: "status", Body: mustJSON(st)})
			} else {
				s.Steps = append(s.Steps, Step{Op: "apply", Manager: pick(g, managers), Force: true, Body: mustJSON(g.ApplyConfig(k))})
			}
		}
	}
	return s
}

func (g *Gen) applyContainers() []any {
	var cs []any
	for _, n := range some(g, containerNames[:3], 1, 2) {
		c := obj{"name": n, "image": pick(g, images[:2])}
		if g.chance(0.3) {
			c["ports"] = []any{obj{"containerPort": pick(g, []int{80, 443}), "protocol": "TCP"}}
		}
		if g.chance(0.3) {
			c["env"] = []any{obj{"name": "A", "value": pick(g, envValues[:2])}}
		}
		if g.chance(0.2) {
			c["args"] = toAny(some(g, args, 1, 2))
		}
		cs = append(cs, c)
	}
	return cs
}

// ApplyConfig returns a configuration for kind k drawn from a small space,
// so that managers often set the same fields (to the same or another
// value); a few are invalid (wrong version, managedFields, unknown field,
// duplicate keys).
func (g *Gen) ApplyConfig(k *Kind) obj {
	md := obj{"name": "x", "namespace": "default"}
	o := obj{"apiVersion": k.APIVersion, "kind": k.Name, "metadata": md}
	if g.chance(0.5) {
		md["labels"] = g.stringMap(labelKeys[:2], labelValues[:2], 1, 2)
	}
	if g.chance(0.2) {
		md["annotations"] = g.stringMap(annotationKeys[:1], labelValues[:2], 1, 1)
	}
	if g.chance(0.15) {
		md["finalizers"] = toAny(some(g, finalizers[:2], 1, 2))
	}
	spec := obj{}
	switch k {
	case Pod:
		spec["containers"] = g.applyContainers()
		if g.chance(0.3) {
			spec["nodeSelector"] = obj{"disk": pick(g, []string{"ssd", "hdd"})}
		}
		if g.chance(0.2) {
			spec["tolerations"] = []any{obj{"operator": "Exists"}}
		}
	case Deployment:
		spec["selector"] = obj{"matchLabels": obj{"app": "web"}}
		if g.chance(0.6) {
			spec["replicas"] = pick(g, []int{1, 2, 3})
		}
		tmpl := obj{"metadata": obj{"labels": obj{"app": "web"}}, "spec": obj{"containers": g.applyContainers()}}
		spec["template"] = tmpl
		if g.chance(0.3) {
			spec["strategy"] = pick(g, []any{obj{"type": "Recreate"}, obj{"type": "RollingUpdate", "rollingUpdate": obj{"maxSurge": 1}}})
		}
		if g.chance(0.2) {
			spec["minReadySeconds"] = pick(g, []int{5, 10})
		}
	case Service:
		var ps []any
		for _, p := range some(g, servicePorts[:3], 1, 2) {
			sp := obj{"port": p, "protocol": "TCP"}
			if g.chance(0.5) {
				sp["targetPort"] = p + g.intn(2)
			}
			ps = append(ps, sp)
		}
		spec["ports"] = ps
		if g.chance(0.5) {
			spec["selector"] = obj{"app": pick(g, []string{"web", "fe"})}
		}
		if g.chance(0.3) {
			spec["type"] = pick(g, []string{"ClusterIP", "NodePort"})
		}
	case Widget:
		if g.chance(0.6) {
			spec["replicas"] = pick(g, []int{1, 2, 3})
		}
		if g.chance(0.5) {
			spec["color"] = pick(g, []string{"red", "green"})
		}
		if g.chance(0.3) {
			spec["tags"] = toAny(some(g, tags[:3], 1, 2))
		}
		if g.chance(0.5) {
			var ps []any
			for _, n := range some(g, widgetPorts[:2], 1, 2) {
				ps = append(ps, obj{"name": n, "port": pick(g, []int{80, 81})})
			}
			spec["ports"] = ps
		}
		if g.chance(0.4) {
			spec["config"] = obj{"a": pick(g, envValues[:2])}
		}
		if g.chance(0.2) {
			spec["extra"] = obj{"free": obj{"form": g.intn(2)}}
		}
		if g.chance(0.1) {
			o["status"] = obj{"phase": "Applied"} // reset on the main resource
		}
	}
	o["spec"] = spec
	switch {
	case g.chance(0.02):
		o["apiVersion"] = "v2"
	case g.chance(0.02):
		md["managedFields"] = []any{obj{"manager": "m", "operation": "Apply", "apiVersion": k.APIVersion, "fieldsType": "FieldsV1", "fieldsV1": obj{}}}
	case g.chance(0.02):
		spec["notAField"] = 1
	case g.chance(0.02) && k == Widget:
		spec["ports"] = []any{obj{"name": "http", "port": 1}, obj{"name": "http", "port": 2}}
	}
	return o
}

// Mutation returns the patch of an Update step (see Step).
func (g *Gen) Mutation(k *Kind) obj {
	switch g.intn(4) {
	case 0:
		return obj{"metadata": obj{"labels": obj{pick(g, labelKeys): pick(g, []any{nil, "b", "web"})}}}
	case 1:
		return obj{"metadata": obj{"annotations": obj{"note": "edited"}}}
	}
	switch k {
	case Pod:
		return obj{"spec": obj{"containers": []any{obj{"name": pick(g, containerNames[:3]), "image": pick(g, images)}}}}
	case Deployment:
		if g.chance(0.5) {
			return obj{"spec": obj{"replicas": pick(g, []int{1, 4, 5})}}
		}
		return obj{"spec": obj{"template": obj{"spec": obj{"containers": []any{obj{"name": pick(g, containerNames[:3]), "image": pick(g, images)}}}}}}
	case Service:
		if g.chance(0.5) {
			return obj{"spec": obj{"selector": obj{"app": pick(g, []any{nil, "fe", "api"})}}}
		}
		return obj{"spec": obj{"ports": []any{obj{"port": pick(g, servicePorts[:3]), "protocol": "TCP", "targetPort": 9999}}}}
	}
	switch g.intn(3) {
	case 0:
		return obj{"spec": obj{"color": pick(g, []string{"blue", "red"}), "replicas": g.intn(4)}}
	case 1:
		return obj{"spec": obj{"tags": []any{"z"}, "config": obj{"a": nil, "b": "y"}}}
	}
	return obj{"spec": obj{"ports": []any{obj{"name": "http", "port": 8080}}}}
}
