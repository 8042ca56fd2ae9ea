package corev1_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

func TestValidateService(t *testing.T) {
	svc := func(spec string) string {
		return `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s","namespace":"d"},"spec":` + spec + `}`
	}
	stored := svc(`{"clusterIP":"10.96.0.10","selector":{"app":"web"},"ports":[{"port":80}]}`)
	vtest.Run(t, "", "services", []vtest.Case{
		{Name: "valid", Obj: svc(`{"selector":{"app":"web"},"ports":[{"name":"http","port":80,"targetPort":"http"},{"name":"dns","port":53,"protocol":"UDP"}]}`)},
		{Name: "no ports", Obj: svc(`{"selector":{"app":"web"}}`), Want: []string{"spec.ports: Required value"}},
		{Name: "headless needs no ports", Obj: svc(`{"clusterIP":"None","selector":{"app":"web"}}`)},
		{Name: "ports", Obj: svc(`{"ports":[{"port":70000,"protocol":"ICMP"},{"name":"Bad_Name","port":70000,"protocol":"ICMP","nodePort":30080}]}`), Want: []string{
			"spec.ports[0].name: Required value",
			"spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
			`spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"`,
			"spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
			`spec.ports[1].name: Invalid value: "Bad_Name": ` + dns1123LabelMsg,
			"spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
			`spec.ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"`,
			"spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
			"spec.ports[1].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
			`spec.ports[1]: Duplicate value: {"Name":"","Protocol":"ICMP","AppProtocol":null,"Port":70000,"TargetPort":0,"NodePort":0}`}},
		{Name: "type and affinity", Obj: svc(`{"type":"Fancy","sessionAffinity":"Sticky","ports":[{"port":80}]}`), Want: []string{
			`spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"`,
			`spec.type: Unsupported value: "Fancy": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"`}},
		{Name: "external name required", Obj: svc(`{"type":"ExternalName"}`), Want: []string{"spec.externalName: Required value"}},
		{Name: "cluster IP may not change", Obj: svc(`{"clusterIP":"10.96.0.11","selector":{"app":"web"},"ports":[{"port":80}]}`), Old: stored, Want: []string{
			`spec.clusterIPs[0]: Invalid value: ["10.96.0.11"]: may not change once set`}},
		{Name: "ports may change", Obj: svc(`{"clusterIP":"10.96.0.10","selector":{"app":"web"},"ports":[{"port":8080}]}`), Old: stored},
	})
}
