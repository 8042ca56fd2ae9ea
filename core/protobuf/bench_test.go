package protobuf

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// BenchmarkEncodePod encodes a defaulted Pod as protobuf; JSON is the
// baseline of the same run (the answer a JSON client gets).
func BenchmarkEncodePod(b *testing.B) {
	obj, err := jsonx.DecodeObject([]byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-7d4b9c","namespace":"default",
	  "uid":"2b7b5a86-7c2a-4f1b-9c43-5a1f0e8b2d11","resourceVersion":"42","creationTimestamp":"2024-05-01T10:00:00Z",
	  "labels":{"app":"web","pod-template-hash":"7d4b9c"},
	  "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-7d4b9c","uid":"u1","controller":true,"blockOwnerDeletion":true}]},
	 "spec":{"containers":[{"name":"nginx","image":"nginx:1.27","ports":[{"containerPort":80,"protocol":"TCP"}],
	   "resources":{"requests":{"cpu":"100m","memory":"64Mi"}},"terminationMessagePath":"/dev/termination-log",
	   "terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],
	  "restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","nodeName":"sandbox-worker",
	  "serviceAccountName":"default","securityContext":{},"schedulerName":"default-scheduler",
	  "tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}]},
	 "status":{"phase":"Running","podIP":"10.244.1.5","startTime":"2024-05-01T10:00:01Z",
	  "conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2024-05-01T10:00:03Z"}]}}`))
	if err != nil {
		b.Fatal(err)
	}
	s := builtin.Definition("io.k8s.api.core.v1.Pod")
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			if _, err := jsonx.Marshal(obj); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("protobuf", func(b *testing.B) {
		for b.Loop() {
			if _, err := EncodeObject(obj, s); err != nil {
				b.Fatal(err)
			}
		}
	})
}
