package main

import (
	"slices"
	"testing"
)

func TestDiffJSON(t *testing.T) {
	for _, tc := range []struct {
		name, a, b string
		want       []string // categories
	}{
		{"server-set fields and allocations are not differences",
			`{"metadata":{"uid":"1b4e28ba-2fa1-11d2-883f-0016d3cca427","namespace":"md-1-000-a","resourceVersion":"7","managedFields":[{"time":"t1","manager":"kubectl"}]},"spec":{"clusterIP":"10.0.0.7","clusterIPs":["10.0.0.7"],"ports":[{"nodePort":31234}]}}`,
			`{"metadata":{"uid":"00000000-0000-0000-0000-000000000001","namespace":"md-1-000-b","resourceVersion":"9","managedFields":[{"time":"t2","manager":"kubectl"}]},"spec":{"clusterIP":"10.96.0.2","clusterIPs":["10.96.0.2"],"ports":[{"nodePort":30000}]}}`,
			nil},
		{"a Job's uid in its labels", `{"metadata":{"labels":{"controller-uid":"1b4e28ba-2fa1-11d2-883f-0016d3cca427"}}}`,
			`{"metadata":{"labels":{"controller-uid":"9b4e28ba-2fa1-11d2-883f-0016d3cca427"}}}`, nil},
		{"missing, extra and changed values, by path without indices",
			`{"spec":{"containers":[{"a":1,"b":"x"}]}}`, `{"spec":{"containers":[{"b":"y","c":true}]}}`,
			[]string{"spec.containers[].a missing", "spec.containers[].b value", "spec.containers[].c extra"}},
		{"kubectl create's stream of objects equals a List of them",
			`{"kind":"List","items":[{"a":1},{"b":2}]}`, `{"a":1} {"b":2}`, nil},
		{"the default ServiceAccount of a reference server without its admission plugin",
			`{"spec":{"containers":[]}}`, `{"spec":{"containers":[],"serviceAccountName":"default","serviceAccount":"default"}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range diffJSONOpt(tc.a, tc.b, true) {
				got = append(got, d.category)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
