// Command celbench measures CRD validation rules natively: it creates N
// custom resources, one POST after the other with the same client, of a
// CRD whose schema carries several x-kubernetes-validations rules and of
// the same CRD without them, against kubesandbox (bin/kubesandbox)
// and against a real kube-apiserver, alternating, and prints objects/s
// per server and CRD, and ours against kube's per object (the target:
// within 2× of kube-apiserver's for the same CRD). Each server's own
// plain CRD is its baseline: "rules cost" is the time per object the
// rules add over it.
//
//	make bench-cel-native KUBE=http://127.0.0.1:6511
//	celbench -ours http://127.0.0.1:6512 -kube http://127.0.0.1:6511 -n 500 -runs 2
//
// Both servers must serve plain HTTP without authentication (the
// oracle's kube-http-proxy adds its token). Not a test: it reports,
// it never asserts.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

const group = "celbench.kubesandbox.dev"

// rules: what the CRD's spec is checked against — comparisons, a regex,
// list and map macros, a quantity-free string function; every string and
// list is bounded so that the estimated cost passes. The transition rule
// (oldSelf) is compiled but not evaluated on create.
var rules = map[string]any{
	"type":     "object",
	"required": []string{"replicas", "maxReplicas", "image"},
	"x-kubernetes-validations": []any{
		map[string]any{"rule": "self.replicas <= self.maxReplicas", "message": "replicas must not exceed maxReplicas"},
		map[string]any{"rule": "!has(self.ports) || self.ports.size() <= self.maxReplicas * 4"},
	},
	"properties": map[string]any{
		"replicas":    map[string]any{"type": "integer", "minimum": 0, "x-kubernetes-validations": []any{map[string]any{"rule": "self >= 0 && self < 1000"}}},
		"maxReplicas": map[string]any{"type": "integer"},
		"image": map[string]any{"type": "string", "maxLength": 128,
			"x-kubernetes-validations": []any{map[string]any{"rule": "self.matches('^[a-z0-9./-]+(:[a-z0-9.-]+)?$')", "messageExpression": "'bad image ' + self"}}},
		"mode": map[string]any{"type": "string", "maxLength": 16,
			"x-kubernetes-validations": []any{map[string]any{"rule": "self == oldSelf", "message": "mode is immutable"}, map[string]any{"rule": "self in ['fast', 'safe']"}}},
		"ports": map[string]any{"type": "array", "maxItems": 16, "items": map[string]any{"type": "integer"},
			"x-kubernetes-validations": []any{map[string]any{"rule": "self.all(p, p > 0 && p < 65536)"}}},
		"labels": map[string]any{"type": "object", "maxProperties": 16, "additionalProperties": map[string]any{"type": "string", "maxLength": 63},
			"x-kubernetes-validations": []any{map[string]any{"rule": "self.all(k, k.size() <= 63 && k.lowerAscii() == k)"}}},
	},
}

// crd is the CRD of plural, with the rules or without (the same schema
// less every x-kubernetes-validations).
func crd(plural string, withRules bool) map[string]any {
	spec := strip(rules, withRules)
	kind := strings.ToUpper(plural[:1]) + plural[1:len(plural)-1]
	return map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": plural + "." + group},
		"spec": map[string]any{
			"group": group, "scope": "Namespaced",
			"names": map[string]any{"plural": plural, "singular": plural[:len(plural)-1], "kind": kind, "listKind": kind + "List"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object",
					"properties": map[string]any{"spec": spec}}}}},
		},
	}
}

// strip copies a schema, dropping its rules unless keep.
func strip(v any, keep bool) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if k == "x-kubernetes-validations" && !keep {
				continue
			}
			out[k] = strip(e, keep)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = strip(e, keep)
		}
		return out
	}
	return v
}

// object is the i-th custom resource: it passes every rule.
func object(kind, name string, i int) []byte {
	b, _ := json.Marshal(map[string]any{
		"apiVersion": group + "/v1", "kind": kind,
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{"replicas": i % 5, "maxReplicas": 5, "image": "registry.example.com/app:v1." + fmt.Sprint(i%10),
			"mode": "safe", "ports": []int{80, 443, 8080 + i%10}, "labels": map[string]any{"app": "bench", "tier": "web"}},
	})
	return b
}

var client = &http.Client{Timeout: 60 * time.Second}

func do(method, url string, body []byte) (int, []byte, error) {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// setup creates the CRD (or finds it) and waits until its resources are served.
func setup(base, plural string, withRules bool) error {
	b, _ := json.Marshal(crd(plural, withRules))
	code, out, err := do("POST", base+"/apis/apiextensions.k8s.io/v1/customresourcedefinitions", b)
	if err != nil {
		return err
	}
	if code != 201 && code != 409 {
		return fmt.Errorf("creating the CRD %s: HTTP %d: %s", plural, code, out)
	}
	for i := 0; i < 300; i++ {
		if code, _, err := do("GET", base+"/apis/"+group+"/v1/namespaces/default/"+plural+"?limit=1", nil); err == nil && code == 200 {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("%s: the CRD %s is not served after 30 s", base, plural)
}

// waitReady waits up to 30 s for base's /readyz (a server just started).
func waitReady(base string) error {
	for i := 0; i < 300; i++ {
		if code, _, err := do("GET", base+"/readyz", nil); err == nil && code == 200 {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("%s is not ready after 30 s", base)
}

// create POSTs n objects, one after the other, and returns the time taken.
func create(base, plural, prefix string, n int) (time.Duration, error) {
	kind := strings.ToUpper(plural[:1]) + plural[1:len(plural)-1]
	url := base + "/apis/" + group + "/v1/namespaces/default/" + plural
	t0 := time.Now()
	for i := 0; i < n; i++ {
		code, out, err := do("POST", url, object(kind, fmt.Sprintf("%s-%d", prefix, i), i))
		if err != nil {
			return 0, err
		}
		if code != 201 {
			return 0, fmt.Errorf("%s: creating %s %s-%d: HTTP %d: %s", base, plural, prefix, i, code, out)
		}
	}
	return time.Since(t0), nil
}

func main() {
	ours := flag.String("ours", "http://127.0.0.1:6512", "kubesandbox (bin/kubesandbox -controllers=false)")
	kube := flag.String("kube", "", "kube-apiserver over plain HTTP (../shared/oracle's proxy); empty: ours alone")
	n := flag.Int("n", 300, "custom resources per CRD, server and run")
	runs := flag.Int("runs", 2, "runs (each: every server, both CRDs)")
	flag.Parse()

	servers := [][2]string{{"kubesandbox", *ours}}
	if *kube != "" {
		servers = append(servers, [2]string{"kube-apiserver", *kube})
	}
	crds := []struct {
		plural string
		rules  bool
	}{{"plains", false}, {"ruleds", true}}
	for _, s := range servers {
		if err := waitReady(s[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, c := range crds {
			if err := setup(s[1], c.plural, c.rules); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		// the rules hold: an object breaking four of them is refused
		bad := strings.Replace(strings.Replace(string(object("Ruled", "bad", 0)), `"maxReplicas":5`, `"maxReplicas":-1`, 1), `"mode":"safe"`, `"mode":"slow"`, 1)
		bad = strings.Replace(strings.Replace(bad, `"ports":[80,`, `"ports":[0,`, 1), `"image":"registry`, `"image":"Registry`, 1)
		code, out, err := do("POST", s[1]+"/apis/"+group+"/v1/namespaces/default/ruleds", []byte(bad))
		if err != nil || code != 422 {
			fmt.Fprintf(os.Stderr, "%s: an object breaking the rules: HTTP %d, %v: %s\n", s[0], code, err, out)
			os.Exit(1)
		}
		var st struct{ Details struct{ Causes []any } }
		_ = json.Unmarshal(out, &st)
		fmt.Printf("%s refuses an object breaking the rules: 422 with %d causes\n", s[0], len(st.Details.Causes))
		// a warm-up object per CRD: the first write under a CRD builds its
		// validators on both servers
		for _, c := range crds {
			if _, err := create(s[1], c.plural, fmt.Sprintf("warm-%d", time.Now().UnixNano()), 1); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
	stamp := time.Now().Format("150405")
	fmt.Printf("celbench: %d custom resources per CRD, server and run; one POST after the other\n\n", *n)
	fmt.Println("| run | server | CRD without rules | CRD with 8 rules | rules cost per object |")
	fmt.Println("| --- | --- | ---: | ---: | ---: |")
	type res struct{ plain, ruled time.Duration }
	for r := 1; r <= *runs; r++ {
		got := map[string]res{}
		for _, s := range servers {
			var x res
			for _, c := range crds {
				d, err := create(s[1], c.plural, fmt.Sprintf("r%s-%d", stamp, r), *n)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				if c.rules {
					x.ruled = d
				} else {
					x.plain = d
				}
			}
			got[s[0]] = x
			per := func(d time.Duration) time.Duration { return d / time.Duration(*n) }
			fmt.Printf("| %d | %s | %.0f objects/s (%v each) | %.0f objects/s (%v each) | %v |\n", r, s[0],
				float64(*n)/x.plain.Seconds(), per(x.plain).Round(time.Microsecond),
				float64(*n)/x.ruled.Seconds(), per(x.ruled).Round(time.Microsecond),
				(per(x.ruled) - per(x.plain)).Round(time.Microsecond))
		}
		if k, ok := got["kube-apiserver"]; ok {
			o := got["kubesandbox"]
			fmt.Printf("| %d | ours / kube per object | %.2f× | %.2f× | |\n", r,
				o.plain.Seconds()/k.plain.Seconds(), o.ruled.Seconds()/k.ruled.Seconds())
		}
	}
}
