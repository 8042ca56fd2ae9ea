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
		// as the real control plane answers (bi-service and curl against it)
		{Name: "cluster IP not an IP", Obj: svc(`{"clusterIP":"10.96.0.300","ports":[{"port":80}]}`), Want: []string{
			`spec.clusterIPs[0]: Invalid value: "10.96.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`}},
		{Name: "cluster IP with leading zeros", Obj: svc(`{"clusterIP":"010.96.0.5","ports":[{"port":80}]}`), Want: []string{
			`spec.clusterIPs[0]: Invalid value: "010.96.0.5": must not have leading 0s`}},
		{Name: "IPv4-mapped cluster IP", Obj: svc(`{"clusterIP":"::ffff:10.96.0.5","ports":[{"port":80}]}`), Want: []string{
			`spec.clusterIPs[0]: Invalid value: "::ffff:10.96.0.5": must not be an IPv4-mapped IPv6 address`}},
		{Name: "two cluster IPs of one family", Obj: svc(`{"clusterIP":"10.96.0.5","clusterIPs":["10.96.0.5","10.96.0.6"],"ports":[{"port":80}]}`), Want: []string{
			`spec.clusterIPs: Invalid value: ["10.96.0.5","10.96.0.6"]: may specify no more than one IP for each IP family`}},
		{Name: "clusterIPs must follow clusterIP", Obj: svc(`{"clusterIP":"10.96.0.5","clusterIPs":["10.96.0.6"],"ports":[{"port":80}]}`), Want: []string{
			"spec.clusterIPs: Invalid value: [\"10.96.0.6\"]: first value must match `clusterIP`"}},
		{Name: "ExternalName with an IP family policy", Obj: svc(`{"type":"ExternalName","externalName":"a.b","ipFamilyPolicy":"SingleStack","ports":[{"port":80}]}`), Want: []string{
			"spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services"}},
		{Name: "fixed valid cluster IP", Obj: svc(`{"clusterIP":"10.96.123.45","ports":[{"port":80}]}`)},
		{Name: "ports may change", Obj: svc(`{"clusterIP":"10.96.0.10","selector":{"app":"web"},"ports":[{"port":8080}]}`), Old: stored},
	})
}
