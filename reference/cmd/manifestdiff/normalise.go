package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// normalise replaces, in a decoded object or List, what two faithful servers
// may answer differently: identities and times, the namespace the run made,
// allocated addresses and ports, and the random suffix of generated names
// (kube-api-access-xxxxx). It returns the value it was given, changed.
//
//	{"metadata":{"uid":"1b…","namespace":"md-1-a","resourceVersion":"7"},
//	 "spec":{"clusterIP":"10.0.0.7","ports":[{"nodePort":31234}]}}
//	→ {"metadata":{"namespace":"NS"},"spec":{"clusterIP":"<ip>","ports":[{"nodePort":"<port>"}]}}
func normalise(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			switch k {
			case "uid", "resourceVersion", "creationTimestamp", "selfLink", "time", "lastTransitionTime", "lastPhaseTransitionTime", "startTime":
				delete(t, k)
				continue
			case "namespace":
				if s, ok := c.(string); ok && strings.HasPrefix(s, "md-") {
					t[k] = "NS"
					continue
				}
			case "clusterIP":
				if s, ok := c.(string); ok && s != "None" && s != "" {
					t[k] = "<ip>"
					continue
				}
			case "clusterIPs":
				if l, ok := c.([]any); ok {
					for i, e := range l {
						if s, ok := e.(string); ok && s != "None" {
							l[i] = "<ip>"
						}
					}
					continue
				}
			case "nodePort", "healthCheckNodePort":
				if _, ok := c.(float64); ok {
					t[k] = "<port>"
					continue
				}
			}
			t[k] = normalise(c)
		}
		return t
	case []any:
		for i, c := range t {
			t[i] = normalise(c)
		}
		return t
	case string:
		return uuid.ReplaceAllString(generated.ReplaceAllString(t, "$1-<gen>"), "<uid>")
	}
	return v
}

// generated matches the generated suffixes of the names kube makes up.
var generated = regexp.MustCompile(`\b(kube-api-access)-[a-z0-9]{5}\b`)

// flatten writes every leaf of v under its JSON path into out.
// {"a":[{"b":1}]} → {"a[0].b": 1}; empty maps and lists are leaves.
func flatten(prefix string, v any, out map[string]any) {
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			out[prefix] = "{}"
		}
		for k, c := range t {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			flatten(p, c, out)
		}
	case []any:
		if len(t) == 0 {
			out[prefix] = "[]"
		}
		for i, c := range t {
			flatten(fmt.Sprintf("%s[%d]", prefix, i), c, out)
		}
	default:
		out[prefix] = v
	}
}

// uuid matches a uid (Jobs copy theirs into labels and selectors).
var uuid = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// decodeStream decodes kubectl's -o json output: one object, a List, or
// (kubectl create of several documents) objects one after another. Several
// objects and a List's items both become a list.
func decodeStream(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	var all []any
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		all = append(all, v)
	}
	if len(all) == 1 {
		if m, ok := all[0].(map[string]any); ok && m["kind"] == "List" {
			items, _ := m["items"].([]any)
			return items, nil
		}
		return all[0], nil
	}
	return all, nil
}

// withoutDefaultServiceAccount removes serviceAccountName/serviceAccount
// "default" from pod specs: a reference server started without
// kube-controller-manager runs without the ServiceAccount admission plugin
// (nothing would create the account), so it never sets them.
func withoutDefaultServiceAccount(v any) {
	switch t := v.(type) {
	case map[string]any:
		if t["serviceAccountName"] == "default" && t["containers"] != nil {
			delete(t, "serviceAccountName")
			if t["serviceAccount"] == "default" {
				delete(t, "serviceAccount")
			}
		}
		for _, c := range t {
			withoutDefaultServiceAccount(c)
		}
	case []any:
		for _, c := range t {
			withoutDefaultServiceAccount(c)
		}
	}
}

var index = regexp.MustCompile(`\[\d+\]`)

// diffJSON compares two kubectl JSON outputs after normalising them. A
// category is the path without list indices and how it differs:
// "missing" (only the reference server has it), "extra" (only the server
// under test has it) or "value".
func diffJSON(a, b string) []diff {
	return diffJSONOpt(a, b, *noSAAdmissionFlag)
}

func diffJSONOpt(a, b string, noSAAdmission bool) []diff {
	if strings.TrimSpace(a) == "" && strings.TrimSpace(b) == "" {
		return nil
	}
	va, ea := decodeStream(a)
	vb, eb := decodeStream(b)
	if ea != nil || eb != nil {
		if a != b {
			return []diff{{"output", fmt.Sprintf("output not comparable: %v / %v", ea, eb)}}
		}
		return nil
	}
	if noSAAdmission {
		withoutDefaultServiceAccount(va)
		withoutDefaultServiceAccount(vb)
	}
	fa, fb := map[string]any{}, map[string]any{}
	flatten("", normalise(va), fa)
	flatten("", normalise(vb), fb)
	var out []diff
	keys := map[string]bool{}
	for k := range fa {
		keys[k] = true
	}
	for k := range fb {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		x, inA := fa[k]
		y, inB := fb[k]
		cat := index.ReplaceAllString(k, "[]")
		switch {
		case inA && !inB:
			out = append(out, diff{cat + " missing", fmt.Sprintf("%s: missing (want %v)", k, x)})
		case !inA && inB:
			out = append(out, diff{cat + " extra", fmt.Sprintf("%s: extra (got %v)", k, y)})
		case fmt.Sprint(x) != fmt.Sprint(y):
			out = append(out, diff{cat + " value", fmt.Sprintf("%s: want %v, got %v", k, x, y)})
		}
	}
	return out
}
