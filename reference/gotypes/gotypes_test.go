// Package gotypes checks core/gotypes against the real printers: the
// pod-template-hash input (k8s.io/utils/dump.ForHash of a v1
// PodTemplateSpec) and encoding/json of the internal core.PodTemplateSpec
// converted from it, for templates decoded from JSON as the API server
// and the controllers decode them.
package gotypes

import (
	"encoding/json"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/gotypes"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	core "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/utils/dump"
)

var templates = map[string]string{
	"minimal": `{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`,
	"defaulted": `{"metadata":{"creationTimestamp":null,"labels":{"app":"web","pod-template-hash":"x"},"annotations":{"a":"<b>&"}},
		"spec":{"containers":[{"name":"main","image":"nginx:1.27","command":["echo","hi"],"resources":{},"terminationMessagePath":"/dev/termination-log",
		"terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,
		"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}}`,
	"rich": `{"metadata":{"labels":{"app":"web"}},"spec":{
		"volumes":[{"name":"data","emptyDir":{"sizeLimit":"1Gi"}},{"name":"cfg","configMap":{"name":"cfg","defaultMode":420,"items":[{"key":"a","path":"b"}]}}],
		"initContainers":[{"name":"init","image":"busybox","restartPolicy":"Always"}],
		"containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80,"protocol":"TCP","name":"http"}],
		"env":[{"name":"A","value":"1"},{"name":"B","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}}],
		"resources":{"limits":{"cpu":"100m","memory":"128Mi"},"requests":{"cpu":"0.5","memory":"1G","ephemeral-storage":"2e3"}},
		"readinessProbe":{"httpGet":{"path":"/","port":"http","scheme":"HTTP"},"periodSeconds":10},
		"livenessProbe":{"tcpSocket":{"port":8080}},"volumeMounts":[{"name":"data","mountPath":"/d","readOnly":true}],
		"securityContext":{"runAsUser":1000,"capabilities":{"drop":["ALL"]}}}],
		"nodeSelector":{"disk":"ssd"},"tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}],
		"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"In","values":["b"]}]}]}}},
		"hostNetwork":true,"priority":5,"enableServiceLinks":false,"overhead":{"cpu":"10m"}}}`,
}

func TestSpewIsDumpForHash(t *testing.T) {
	for name, src := range templates {
		t.Run(name, func(t *testing.T) {
			var typed v1.PodTemplateSpec
			if err := json.Unmarshal([]byte(src), &typed); err != nil {
				t.Fatal(err)
			}
			obj, err := jsonx.Decode([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			want := dump.ForHash(typed)
			if got := gotypes.Spew(gotypes.PodTemplateSpec, obj); got != want {
				t.Errorf("Spew:\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestInternalJSONIsEncodingJSON(t *testing.T) {
	for name, src := range templates {
		t.Run(name, func(t *testing.T) {
			var typed v1.PodTemplateSpec
			if err := json.Unmarshal([]byte(src), &typed); err != nil {
				t.Fatal(err)
			}
			var internal core.PodTemplateSpec
			if err := legacyscheme.Scheme.Convert(&typed, &internal, nil); err != nil {
				t.Fatal(err)
			}
			want, err := json.Marshal(internal)
			if err != nil {
				t.Fatal(err)
			}
			obj, err := jsonx.Decode([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if got := gotypes.InternalJSON(gotypes.InternalPodTemplateSpec, obj); string(got) != string(want) {
				t.Errorf("InternalJSON:\n got %s\nwant %s", got, want)
			}
		})
	}
}

var _ runtime.Object = (*v1.Pod)(nil)
