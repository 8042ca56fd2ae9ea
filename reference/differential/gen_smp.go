package differential

import "fmt"

// SMPPatch returns a random strategic merge patch for original (an object
// of kind k made by Object): label and annotation edits with null deletes
// and $patch: replace|delete, finalizer merges with
// $deleteFromPrimitiveList and $setElementOrder, container/port/env/
// volumeMount merges by key with $patch: delete and $setElementOrder,
// volume and strategy changes with $retainKeys, and a few malformed
// directives that must fail the same way.
func (g *Gen) SMPPatch(k *Kind, original obj) obj {
	p := obj{}
	n := 1 + g.intn(3)
	for i := 0; i < n; i++ {
		switch g.intn(6) {
		case 0:
			g.smpStringMap(p, original, []string{"metadata", "labels"}, labelKeys)
		case 1:
			g.smpStringMap(p, original, []string{"metadata", "annotations"}, annotationKeys)
		case 2:
			g.smpFinalizers(p, original)
		default:
			switch {
			case k.podSpec != nil && g.chance(0.8):
				g.smpPodSpec(p, original, k.podSpec)
			case k == Deployment:
				g.smpDeployment(p, original)
			case k == Service:
				g.smpService(p, original)
			}
		}
	}
	if g.chance(0.05) {
		g.smpMalformed(p, k)
	}
	return p
}

func (g *Gen) smpStringMap(p, original obj, path, keys []string) {
	m := obj{}
	for _, key := range some(g, keys, 1, 2) {
		if g.chance(0.3) {
			m[key] = nil
		} else {
			m[key] = pick(g, labelValues)
		}
	}
	switch {
	case g.chance(0.08):
		m["$patch"] = "replace"
	case g.chance(0.05):
		m["$patch"] = "merge"
	case g.chance(0.05):
		m = obj{"$patch": "delete"}
	case g.chance(0.05):
		setIn(p, path, nil)
		return
	}
	setIn(p, path, m)
}

func (g *Gen) smpFinalizers(p, original obj) {
	cur := toAnyList(at(original, "metadata", "finalizers"))
	md := obj{}
	if old, ok := p["metadata"].(obj); ok {
		md = old
	}
	p["metadata"] = md
	switch g.intn(6) {
	case 0, 1:
		md["finalizers"] = toAny(some(g, finalizers, 1, 2))
	case 2:
		md["$deleteFromPrimitiveList/finalizers"] = toAny(some(g, finalizers, 1, 2))
	case 3:
		add := toAny(some(g, finalizers, 0, 2))
		md["finalizers"] = add
		order := union(cur, add)
		if g.chance(0.15) && len(order) > 0 {
			order = order[1:] // may miss a patched element: an error
		}
		md["$setElementOrder/finalizers"] = shuffled(g, order)
	case 4:
		md["finalizers"] = nil
	case 5:
		md["$deleteFromPrimitiveList/finalizers"] = toAny(some(g, finalizers, 1, 1))
		md["finalizers"] = toAny(some(g, finalizers, 1, 2))
	}
}

func toAnyList(v any) []any {
	l, _ := v.([]any)
	return l
}

func union(a, b []any) []any {
	out := append([]any(nil), a...)
	for _, x := range b {
		found := false
		for _, y := range out {
			if x == y {
				found = true
			}
		}
		if !found {
			out = append(out, x)
		}
	}
	return out
}

// smpPodSpec edits containers, volumes, tolerations or nodeSelector.
func (g *Gen) smpPodSpec(p, original obj, path []string) {
	spec, _ := at(original, path...).(obj)
	switch g.intn(5) {
	case 0, 1:
		g.smpContainers(p, spec, path)
	case 2:
		var items []any
		names := toStrings(keysOf(spec["volumes"], "name"))
		for _, n := range some(g, append(names, "extra"), 1, 2) {
			switch g.intn(5) {
			case 0:
				items = append(items, obj{"name": n, "$retainKeys": []any{"name", "secret"}, "secret": obj{"secretName": "z"}})
			case 1:
				items = append(items, obj{"name": n, "configMap": obj{"name": "z"}})
			case 2:
				items = append(items, obj{"name": n, "$patch": "delete"})
			case 3:
				items = append(items, obj{"name": n, "$retainKeys": []any{"name"}, "emptyDir": obj{}}) // not in retainKeys: 422
			default:
				items = append(items, g.volume(n))
			}
		}
		setIn(p, join(path, "volumes"), items)
	case 3:
		if g.chance(0.3) {
			setIn(p, join(path, "tolerations"), nil)
		} else {
			setIn(p, join(path, "tolerations"), []any{g.toleration()})
		}
	case 4:
		m := g.stringMap([]string{"disk", "zone"}, []string{"ssd", "hdd"}, 1, 2)
		switch {
		case g.chance(0.2):
			m["$patch"] = "replace"
		case g.chance(0.1):
			m = obj{"$patch": "delete"}
		case g.chance(0.2):
			m["zone"] = nil
		}
		setIn(p, join(path, "nodeSelector"), m)
	}
}

func toStrings(xs []any) []string {
	var out []string
	for _, x := range xs {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func (g *Gen) smpContainers(p, spec obj, path []string) {
	existing := toStrings(keysOf(spec["containers"], "name"))
	var items []any
	var patched []any
	for _, n := range some(g, append(existing, "new1", "new2"), 1, 3) {
		patched = append(patched, n)
		var c obj
		for _, e := range toAnyList(spec["containers"]) {
			if m, ok := e.(obj); ok && m["name"] == n {
				c = m
			}
		}
		switch {
		case c == nil:
			items = append(items, g.container(n))
		case g.chance(0.15):
			items = append(items, obj{"name": n, "$patch": "delete"})
		case g.chance(0.05):
			items = append(items, obj{"name": n, "$patch": "merge", "image": pick(g, images)})
		default:
			items = append(items, g.containerPatch(c))
		}
	}
	if g.chance(0.08) {
		items = append([]any{obj{"$patch": "replace"}}, items...)
	}
	if g.chance(0.04) {
		items = append(items, obj{"image": "no-merge-key"})
	}
	setIn(p, join(path, "containers"), items)
	if g.chance(0.3) {
		order := union(toAny(existing), patched)
		if g.chance(0.15) {
			order = order[1:]
		}
		var l []any
		for _, n := range shuffled(g, order) {
			l = append(l, obj{"name": n})
		}
		setIn(p, join(path, "$setElementOrder/containers"), l)
	}
}

// containerPatch edits one existing container.
func (g *Gen) containerPatch(c obj) obj {
	out := obj{"name": c["name"]}
	for i := 0; i < 1+g.intn(2); i++ {
		switch g.intn(7) {
		case 0:
			out["image"] = pick(g, images)
		case 1:
			var ports []any
			for _, pt := range some(g, containerPorts, 1, 2) {
				switch g.intn(4) {
				case 0:
					ports = append(ports, obj{"containerPort": pt, "$patch": "delete"})
				case 1:
					ports = append(ports, obj{"containerPort": pt, "protocol": nil})
				default:
					ports = append(ports, g.containerPort(pt))
				}
			}
			out["ports"] = ports
			if g.chance(0.3) {
				var order []any
				for _, pt := range shuffled(g, union(keysOf(c["ports"], "containerPort"), keysOf(ports, "containerPort"))) {
					order = append(order, obj{"containerPort": pt})
				}
				out["$setElementOrder/ports"] = order
			}
		case 2:
			var env []any
			for _, n := range some(g, envNames, 1, 2) {
				switch g.intn(4) {
				case 0:
					env = append(env, obj{"name": n, "$patch": "delete"})
				case 1:
					env = append(env, obj{"name": n, "value": nil})
				default:
					env = append(env, obj{"name": n, "value": pick(g, envValues)})
				}
			}
			out["env"] = env
			if g.chance(0.3) {
				var order []any
				for _, n := range shuffled(g, union(keysOf(c["env"], "name"), keysOf(env, "name"))) {
					order = append(order, obj{"name": n})
				}
				out["$setElementOrder/env"] = order
			}
		case 3:
			var vm []any
			for _, n := range some(g, volumeNames, 1, 2) {
				if g.chance(0.3) {
					vm = append(vm, obj{"mountPath": "/mnt/" + n, "$patch": "delete"})
				} else {
					vm = append(vm, obj{"mountPath": "/mnt/" + n, "name": n, "readOnly": g.chance(0.5)})
				}
			}
			out["volumeMounts"] = vm
		case 4:
			out["args"] = toAny(some(g, args, 0, 2))
		case 5:
			out["resources"] = obj{"limits": obj{"cpu": pick(g, []string{"100m", "1"})}}
		case 6:
			out["imagePullPolicy"] = pick(g, []any{nil, "Always"})
		}
	}
	return out
}

func (g *Gen) smpDeployment(p, original obj) {
	switch g.intn(3) {
	case 0:
		setIn(p, []string{"spec", "replicas"}, pick(g, []any{nil, 0, 3, 7}))
	case 1:
		var s any
		switch g.intn(6) {
		case 0:
			s = obj{"$retainKeys": []any{"type"}, "type": "Recreate"}
		case 1:
			s = obj{"type": "RollingUpdate", "rollingUpdate": obj{"maxSurge": "25%"}}
		case 2:
			s = obj{"$retainKeys": []any{"type", "rollingUpdate"}, "type": "RollingUpdate", "rollingUpdate": obj{"maxUnavailable": 1}}
		case 3:
			s = obj{"$retainKeys": []any{"type"}, "rollingUpdate": obj{"maxSurge": 2}} // 422
		case 4:
			s = obj{"type": "Recreate", "rollingUpdate": nil}
		default:
			s = obj{"$patch": "delete"}
		}
		setIn(p, []string{"spec", "strategy"}, s)
	case 2:
		g.smpStringMap(p, original, []string{"spec", "template", "metadata", "labels"}, labelKeys)
	}
}

func (g *Gen) smpService(p, original obj) {
	spec, _ := original["spec"].(obj)
	switch g.intn(3) {
	case 0, 1:
		var items []any
		existing := keysOf(spec["ports"], "port")
		var patched []any
		for _, pt := range some(g, servicePorts, 1, 2) {
			patched = append(patched, pt)
			switch g.intn(4) {
			case 0:
				items = append(items, obj{"port": pt, "$patch": "delete"})
			case 1:
				items = append(items, obj{"port": pt, "targetPort": pick(g, []any{9000, "web"})})
			default:
				items = append(items, g.servicePort(pt))
			}
		}
		if g.chance(0.08) {
			items = append([]any{obj{"$patch": "replace"}}, items...)
		}
		setIn(p, []string{"spec", "ports"}, items)
		if g.chance(0.3) {
			var order []any
			for _, pt := range shuffled(g, union(toIntsAny(existing), patched)) {
				order = append(order, obj{"port": pt})
			}
			setIn(p, []string{"spec", "$setElementOrder/ports"}, order)
		}
	case 2:
		if g.chance(0.5) {
			g.smpStringMap(p, original, []string{"spec", "selector"}, labelKeys)
		} else {
			setIn(p, []string{"spec", "type"}, pick(g, []any{nil, "NodePort", "ClusterIP"}))
		}
	}
}

// toIntsAny normalises generated ints so that union finds equal ones.
func toIntsAny(xs []any) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		switch v := x.(type) {
		case int64:
			out[i] = int(v)
		case float64:
			out[i] = int(v)
		default:
			out[i] = x
		}
	}
	return out
}

// smpMalformed adds one directive the library rejects.
func (g *Gen) smpMalformed(p obj, k *Kind) {
	switch g.intn(8) {
	case 7:
		// A list field the struct does not have: the real server fails
		// (known disagreement, see docs/differential.md).
		setIn(p, []string{"spec", "$setElementOrder/notAField"}, []any{})
	case 0:
		setIn(p, []string{"metadata", "labels", "$patch"}, "bogus")
	case 1:
		setIn(p, []string{"metadata", "$deleteFromPrimitiveList/finalizers"}, "not-a-list")
	case 2:
		setIn(p, []string{"metadata", "$setElementOrder/finalizers"}, "not-a-list")
	case 3:
		setIn(p, []string{"metadata", "finalizers"}, []any{[]any{"a"}})
	case 4:
		setIn(p, []string{"spec", "$retainKeys"}, "not-a-list")
	case 5:
		if k.podSpec != nil {
			setIn(p, join(k.podSpec, "containers"), "not-a-list")
		} else {
			setIn(p, []string{"metadata", "labels"}, []any{"x"})
		}
	case 6:
		setIn(p, []string{"metadata", "$patch"}, fmt.Sprintf("weird%d", g.intn(3)))
	}
}
