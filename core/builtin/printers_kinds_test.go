package builtin

import (
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// TestKindsCells: the Table cells of the kinds of catalog_kinds.go, with
// the cells the real server (v1.37.2) printed for the same objects.
func TestKindsCells(t *testing.T) {
	now := time.Date(2026, 11, 24, 6, 40, 0, 0, time.UTC)
	cases := []struct {
		name string
		f    cellFunc
		obj  string
		want any
	}{
		{"endpoints", endpointsCell, `{"subsets":[{"addresses":[{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}],"ports":[{"name":"a","port":80},{"name":"b","port":443}]},{"addresses":[{"ip":"10.0.0.9"}]}]}`,
			"10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 2 more..."},
		{"endpoints none", endpointsCell, `{}`, "<none>"},
		{"endpoints ipv6", endpointsCell, `{"subsets":[{"addresses":[{"ip":"fd00::1"}],"ports":[{"port":80}]}]}`, "[fd00::1]:80"},
		{"slice ports", endpointSlicePorts, `{"ports":[{"name":"a","port":80},{"name":"h"},{"name":"c","port":8},{"name":"d","port":9}]}`, "80,h,8 + 1 more..."},
		{"slice endpoints", endpointSliceEndpoints, `{"endpoints":[{"addresses":["10.0.0.1"]},{"addresses":["10.0.0.2"]},{"addresses":["10.0.0.3"]},{"addresses":["10.0.0.4"]}]}`,
			"10.0.0.1,10.0.0.2,10.0.0.3 + 1 more..."},
		{"slice no ports", endpointSlicePorts, `{}`, "<unset>"},
		{"slice no endpoints", endpointSliceEndpoints, `{}`, "<unset>"},
		{"node status", nodeStatus, `{"spec":{"unschedulable":true},"status":{"conditions":[{"type":"Ready","status":"False"}]}}`, "NotReady,SchedulingDisabled"},
		{"node status unknown", nodeStatus, `{}`, "Unknown"},
		{"node roles", nodeRoles, `{"metadata":{"labels":{"node-role.kubernetes.io/control-plane":"","kubernetes.io/role":"worker"}}}`, "control-plane,worker"},
		{"node no roles", nodeRoles, `{}`, "<none>"},
		{"node internal ip", nodeInternalIP, `{"status":{"addresses":[{"type":"InternalIP","address":"10.1.1.1"}]}}`, "10.1.1.1"},
		{"node external ip", nodeExternalIP, `{"status":{"addresses":[{"type":"InternalIP","address":"10.1.1.1"}]}}`, "<none>"},
		{"node kernel", nodeKernelVersion, `{"status":{"nodeInfo":{"kernelVersion":"6.1","architecture":"amd64"}}}`, "6.1 (amd64)"},
		{"node os image", nodeOSImage, `{"status":{"nodeInfo":{}}}`, "<unknown>"},
		{"node version", nodeKubeletVersion, `{"status":{"nodeInfo":{"kubeletVersion":"v1.37.2"}}}`, "v1.37.2"},
		{"events.k8s.io object", eventsV1Object, `{"regarding":{"kind":"Pod","name":"p1"}}`, "pod/p1"},
		{"events.k8s.io subobject", eventsV1Subobject, `{"regarding":{"fieldPath":"spec.containers{a}"}}`, "spec.containers{a}"},
		{"events.k8s.io source", eventsV1Source, `{"reportingController":"me/ctl","reportingInstance":"inst","deprecatedSource":{}}`, "me/ctl, inst"},
		{"events.k8s.io count", eventsV1Count, `{}`, int64(1)},
		{"events.k8s.io last seen", eventsV1LastSeen, `{"eventTime":"2026-11-24T06:00:00.000000Z","deprecatedLastTimestamp":null}`, "40m"},
		{"events.k8s.io first seen", eventsV1FirstSeen, `{"eventTime":"2026-11-24T06:00:00.000000Z","deprecatedFirstTimestamp":null}`, "40m"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, err := jsonx.DecodeObject([]byte(c.obj))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.f(o, now); got != c.want {
				t.Errorf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

// TestNodeCreate: a Node created with a capacity and no taints, as the
// real server stores it (allocatable from capacity, the not-ready taint of
// the TaintNodesByCondition admission plugin, added once).
func TestNodeCreate(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"capacity", `{"status":{"capacity":{"cpu":"2"}}}`,
			`{"spec":{"taints":[{"effect":"NoSchedule","key":"node.kubernetes.io/not-ready"}]},"status":{"allocatable":{"cpu":"2"},"capacity":{"cpu":"2"}}}`},
		{"tainted already", `{"spec":{"taints":[{"key":"node.kubernetes.io/not-ready","effect":"NoSchedule"}]}}`,
			`{"spec":{"taints":[{"effect":"NoSchedule","key":"node.kubernetes.io/not-ready"}]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, err := jsonx.DecodeObject([]byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			prepareNodeCreate(o)
			defaultNode(o)
			if got, _ := jsonx.Marshal(o); string(got) != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}
