package builtin

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

type hookCase struct {
	name    string
	hook    func(map[string]any)
	in, out string
}

func runHookCases(t *testing.T, cases []hookCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obj, err := jsonx.DecodeObject([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			want, err := jsonx.DecodeObject([]byte(tc.out))
			if err != nil {
				t.Fatal(err)
			}
			tc.hook(obj)
			if !reflect.DeepEqual(obj, want) {
				got, _ := json.Marshal(obj)
				t.Errorf("got  %s\nwant %s", got, tc.out)
			}
		})
	}
}

func TestDefaultPod(t *testing.T) {
	runHookCases(t, []hookCase{
		{"minimal", defaultPod,
			`{"spec":{"containers":[{"name":"c","image":"nginx"}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"nginx","imagePullPolicy":"Always","resources":{},
			  "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
			  "dnsPolicy":"ClusterFirst","enableServiceLinks":true,"restartPolicy":"Always","schedulerName":"default-scheduler",
			  "securityContext":{},"terminationGracePeriodSeconds":30}}`},
		{"tagged image, ports, probe", defaultPod,
			`{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"nginx:1.27","ports":[{"containerPort":80}],
			  "readinessProbe":{"httpGet":{"port":80}},"livenessProbe":{"grpc":{"port":9},"periodSeconds":5}}]}}`,
			`{"spec":{"containers":[{"name":"c","image":"nginx:1.27","imagePullPolicy":"IfNotPresent","resources":{},
			  "ports":[{"containerPort":80,"protocol":"TCP"}],
			  "readinessProbe":{"httpGet":{"port":80,"path":"/","scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3},
			  "livenessProbe":{"grpc":{"port":9,"service":""},"timeoutSeconds":1,"periodSeconds":5,"successThreshold":1,"failureThreshold":3},
			  "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
			  "dnsPolicy":"ClusterFirst","enableServiceLinks":true,"restartPolicy":"Never","schedulerName":"default-scheduler",
			  "securityContext":{},"terminationGracePeriodSeconds":30}}`},
		{"limits become requests (no resizePolicy), host ports", defaultPod,
			`{"spec":{"hostNetwork":true,"enableServiceLinks":false,"terminationGracePeriodSeconds":5,
			  "containers":[{"name":"c","image":"a@sha256:00","imagePullPolicy":"Never","ports":[{"containerPort":8080,"protocol":"UDP"}],
			  "resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"500m"}}}]}}`,
			`{"spec":{"hostNetwork":true,"enableServiceLinks":false,"terminationGracePeriodSeconds":5,
			  "containers":[{"name":"c","image":"a@sha256:00","imagePullPolicy":"Never","ports":[{"containerPort":8080,"protocol":"UDP","hostPort":8080}],
			  "resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"500m","memory":"1Gi"}},
			  "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
			  "dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{}}}`},
		{"volumes and env", defaultPod,
			`{"spec":{"serviceAccount":"robot","containers":[{"name":"c","image":"x:1","env":[{"name":"N","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}]}],
			  "volumes":[{"name":"a"},{"name":"b","secret":{"secretName":"s"}},{"name":"c","configMap":{"name":"m","defaultMode":256}},
			  {"name":"d","hostPath":{"path":"/x"}},{"name":"e","projected":{"sources":[{"serviceAccountToken":{"path":"t"}}]}}]}}`,
			`{"spec":{"serviceAccount":"robot","serviceAccountName":"robot",
			  "containers":[{"name":"c","image":"x:1","imagePullPolicy":"IfNotPresent","resources":{},
			  "env":[{"name":"N","valueFrom":{"fieldRef":{"fieldPath":"metadata.name","apiVersion":"v1"}}}],
			  "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
			  "volumes":[{"name":"a","emptyDir":{}},{"name":"b","secret":{"secretName":"s","defaultMode":420}},{"name":"c","configMap":{"name":"m","defaultMode":256}},
			  {"name":"d","hostPath":{"path":"/x","type":""}},{"name":"e","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"path":"t","expirationSeconds":3600}}]}}],
			  "dnsPolicy":"ClusterFirst","enableServiceLinks":true,"restartPolicy":"Always","schedulerName":"default-scheduler",
			  "securityContext":{},"terminationGracePeriodSeconds":30}}`},
		{"wrong shapes are left alone", defaultPod,
			`{"spec":{"containers":"nope","volumes":[1,null,{"name":"v","secret":"x"}]}}`,
			`{"spec":{"containers":"nope","volumes":[1,null,{"name":"v","secret":"x"}],
			  "dnsPolicy":"ClusterFirst","enableServiceLinks":true,"restartPolicy":"Always","schedulerName":"default-scheduler",
			  "securityContext":{},"terminationGracePeriodSeconds":30}}`},
		{"spec not an object", defaultPod, `{"spec":3}`, `{"spec":3}`},
	})
}

func TestPreparePodCreate(t *testing.T) {
	runHookCases(t, []hookCase{
		{"best effort", preparePodCreate,
			`{"spec":{"containers":[{"name":"c"}]},"status":{"phase":"Running"}}`,
			`{"spec":{"containers":[{"name":"c"}],"serviceAccountName":"default","serviceAccount":"default","priority":0,
			  "preemptionPolicy":"PreemptLowerPriority","tolerations":[
			  {"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},
			  {"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}]},
			  "status":{"phase":"Pending","qosClass":"BestEffort"}}`},
		{"guaranteed, own toleration", preparePodCreate,
			`{"spec":{"serviceAccountName":"sa","tolerations":[{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":10}],
			  "containers":[{"name":"c","resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"1","memory":"1Gi"}}}]}}`,
			`{"spec":{"serviceAccountName":"sa","priority":0,"preemptionPolicy":"PreemptLowerPriority","tolerations":[
			  {"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":10},
			  {"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],
			  "containers":[{"name":"c","resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"1","memory":"1Gi"}}}]},
			  "status":{"phase":"Pending","qosClass":"Guaranteed"}}`},
		{"burstable", preparePodCreate,
			`{"spec":{"serviceAccountName":"sa","tolerations":[{"operator":"Exists"}],"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}`,
			`{"spec":{"serviceAccountName":"sa","priority":0,"preemptionPolicy":"PreemptLowerPriority","tolerations":[{"operator":"Exists"}],
			  "containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]},
			  "status":{"phase":"Pending","qosClass":"Burstable"}}`},
	})
}

func TestImageTag(t *testing.T) {
	for _, tc := range []struct{ image, want string }{
		{"nginx", "latest"},
		{"nginx:latest", "latest"},
		{"nginx:1.27", "1.27"},
		{"docker.io/library/nginx", "latest"},
		{"localhost:5000/app", "latest"},
		{"localhost:5000/app:v2", "v2"},
		{"nginx@sha256:0000", ""},
		{"nginx:1@sha256:0000", "1"},
		{"", ""},
		{"NGINX", ""},
		{" nginx", ""},
	} {
		t.Run(tc.image, func(t *testing.T) {
			if got := imageTag(tc.image); got != tc.want {
				t.Errorf("imageTag(%q) = %q, want %q", tc.image, got, tc.want)
			}
		})
	}
}

func TestDefaultWorkloads(t *testing.T) {
	const tmplIn = `"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i:1"}]}}`
	const tmplOut = `"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i:1","imagePullPolicy":"IfNotPresent","resources":{},
	  "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
	  "dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30}}`
	runHookCases(t, []hookCase{
		{"deployment", defaultDeployment, `{"spec":{` + tmplIn + `}}`,
			`{"spec":{"replicas":1,"revisionHistoryLimit":10,"progressDeadlineSeconds":600,
			  "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},` + tmplOut + `}}`},
		{"deployment recreate", defaultDeployment, `{"spec":{"replicas":3,"strategy":{"type":"Recreate"}}}`,
			`{"spec":{"replicas":3,"revisionHistoryLimit":10,"progressDeadlineSeconds":600,"strategy":{"type":"Recreate"}}}`},
		{"replicaset", defaultReplicaSet, `{"spec":{` + tmplIn + `}}`, `{"spec":{"replicas":1,` + tmplOut + `}}`},
		{"replicationcontroller: selector and labels from the template, minReadySeconds 0 not written", defaultReplicationController,
			`{"spec":{"minReadySeconds":0,` + tmplIn + `}}`,
			`{"metadata":{"labels":{"a":"b"}},"spec":{"replicas":1,"selector":{"a":"b"},` + tmplOut + `}}`},
		{"replicationcontroller: its own selector and labels stay", defaultReplicationController,
			`{"metadata":{"labels":{"x":"y"}},"spec":{"replicas":0,"minReadySeconds":5,"selector":{"a":"b"},` + tmplIn + `}}`,
			`{"metadata":{"labels":{"x":"y"}},"spec":{"replicas":0,"minReadySeconds":5,"selector":{"a":"b"},` + tmplOut + `}}`},
		{"replicationcontroller without a template", defaultReplicationController, `{"spec":{}}`, `{"spec":{"replicas":1}}`},
		{"statefulset", defaultStatefulSet, `{"spec":{"volumeClaimTemplates":[{"metadata":{"name":"w"},"spec":{}}],` + tmplIn + `}}`,
			`{"spec":{"replicas":1,"revisionHistoryLimit":10,"podManagementPolicy":"OrderedReady",
			  "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":0,"maxUnavailable":1}},
			  "persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Retain","whenScaled":"Retain"},
			  "volumeClaimTemplates":[{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"w"},"spec":{"volumeMode":"Filesystem"},"status":{"phase":"Pending"}}],` + tmplOut + `}}`},
		{"daemonset", defaultDaemonSet, `{"spec":{` + tmplIn + `}}`,
			`{"metadata":{"annotations":{"deprecated.daemonset.template.generation":"0"}},"spec":{"revisionHistoryLimit":10,"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":0}},` + tmplOut + `}}`},
		{"job", defaultJob, `{"metadata":{"name":"j"},"spec":{` + tmplIn + `}}`,
			`{"metadata":{"name":"j","labels":{"a":"b"}},"spec":{"completions":1,"parallelism":1,"backoffLimit":6,"completionMode":"NonIndexed",
			  "suspend":false,"manualSelector":false,"podReplacementPolicy":"TerminatingOrFailed",` + tmplOut + `}}`},
		{"job with parallelism and failure policy", defaultJob,
			`{"metadata":{"labels":{"x":"y"}},"spec":{"parallelism":3,"backoffLimitPerIndex":1,"podFailurePolicy":{"rules":[{"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget"}]}]}}}`,
			`{"metadata":{"labels":{"x":"y"}},"spec":{"parallelism":3,"backoffLimitPerIndex":1,"backoffLimit":2147483647,"completionMode":"NonIndexed",
			  "suspend":false,"manualSelector":false,"podReplacementPolicy":"Failed",
			  "podFailurePolicy":{"rules":[{"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget","status":"True"}]}]}}}`},
		{"cronjob", defaultCronJob, `{"spec":{"schedule":"* * * * *","jobTemplate":{"spec":{` + tmplIn + `}}}}`,
			`{"spec":{"schedule":"* * * * *","concurrencyPolicy":"Allow","suspend":false,"successfulJobsHistoryLimit":3,"failedJobsHistoryLimit":1,
			  "jobTemplate":{"spec":{` + tmplOut + `}}}}`},
	})
}

func TestDefaultCore(t *testing.T) {
	runHookCases(t, []hookCase{
		{"service", defaultAndPrepareService, `{"spec":{"selector":{"app":"a"},"ports":[{"port":80},{"port":53,"protocol":"UDP","targetPort":"dns"}]}}`,
			`{"spec":{"selector":{"app":"a"},"type":"ClusterIP","sessionAffinity":"None","internalTrafficPolicy":"Cluster",
			  "ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"],
			  "ports":[{"port":80,"protocol":"TCP","targetPort":80},{"port":53,"protocol":"UDP","targetPort":"dns"}]},"status":{"loadBalancer":{}}}`},
		{"service defaults leave the allocated fields to the storage", defaultService, `{"spec":{"clusterIP":"10.96.0.10","ports":[{"port":80}]}}`,
			`{"spec":{"clusterIP":"10.96.0.10","type":"ClusterIP","sessionAffinity":"None","internalTrafficPolicy":"Cluster",
			  "ports":[{"port":80,"protocol":"TCP","targetPort":80}]},"status":{"loadBalancer":{}}}`},
		{"headless without selector", defaultAndPrepareService, `{"spec":{"clusterIP":"None"}}`,
			`{"spec":{"clusterIP":"None","clusterIPs":["None"],"type":"ClusterIP","sessionAffinity":"None","internalTrafficPolicy":"Cluster",
			  "ipFamilyPolicy":"RequireDualStack","ipFamilies":["IPv4"]},"status":{"loadBalancer":{}}}`},
		{"load balancer with client IP affinity", defaultAndPrepareService, `{"spec":{"type":"LoadBalancer","sessionAffinity":"ClientIP","ports":[{"port":443,"targetPort":0}]}}`,
			`{"spec":{"type":"LoadBalancer","sessionAffinity":"ClientIP","sessionAffinityConfig":{"clientIP":{"timeoutSeconds":10800}},
			  "externalTrafficPolicy":"Cluster","internalTrafficPolicy":"Cluster","allocateLoadBalancerNodePorts":true,
			  "ipFamilyPolicy":"SingleStack","ipFamilies":["IPv4"],"ports":[{"port":443,"protocol":"TCP","targetPort":443}]},"status":{"loadBalancer":{}}}`},
		{"external name", defaultService, `{"spec":{"type":"ExternalName","externalName":"example.com","sessionAffinityConfig":{}}}`,
			`{"spec":{"type":"ExternalName","externalName":"example.com","sessionAffinity":"None"},"status":{"loadBalancer":{}}}`},
		{"secret", defaultSecret, `{"data":{}}`, `{"data":{},"type":"Opaque"}`},
		{"secret typed", defaultSecret, `{"type":"kubernetes.io/tls"}`, `{"type":"kubernetes.io/tls"}`},
		{"secret stringData folded into data", defaultSecret, `{"data":{"a":"YQ==","b":"Yg=="},"stringData":{"b":"B","c":"s3cret"}}`,
			`{"data":{"a":"YQ==","b":"Qg==","c":"czNjcmV0"},"type":"Opaque"}`},
		{"namespace", defaultNamespace, `{"metadata":{"name":"dev","labels":{"a":"b"}}}`,
			`{"metadata":{"name":"dev","labels":{"a":"b","kubernetes.io/metadata.name":"dev"}},"spec":{},"status":{"phase":"Active"}}`},
		{"namespace generateName", defaultNamespace, `{"metadata":{"generateName":"x-"}}`,
			`{"metadata":{"generateName":"x-"},"spec":{},"status":{"phase":"Active"}}`},
		{"namespace create", prepareNamespaceCreate, `{"spec":{"finalizers":["a"]},"status":{"phase":"Terminating"}}`,
			`{"spec":{"finalizers":["a","kubernetes"]},"status":{"phase":"Active"}}`},
		{"event", defaultEvent, `{"reason":"r"}`, `{"reason":"r","firstTimestamp":null,"lastTimestamp":null,"eventTime":null}`},
	})
}

func TestPrepareNamespaceUpdate(t *testing.T) {
	obj := map[string]any{"spec": map[string]any{"finalizers": []any{}}, "status": map[string]any{"phase": "Terminating"}}
	old := map[string]any{"spec": map[string]any{"finalizers": []any{"kubernetes"}}, "status": map[string]any{"phase": "Active"}}
	prepareNamespaceUpdate(obj, old)
	want := map[string]any{"spec": map[string]any{"finalizers": []any{"kubernetes"}}, "status": map[string]any{"phase": "Active"}}
	if !reflect.DeepEqual(obj, want) {
		t.Errorf("got %v", obj)
	}
}

func TestPrepareJobCreate(t *testing.T) {
	runHookCases(t, []hookCase{
		{"generated selector and labels", prepareJobCreate,
			`{"metadata":{"name":"pi","uid":"u1"},"spec":{"template":{"spec":{}}},"status":{"active":3}}`,
			`{"metadata":{"name":"pi","uid":"u1","labels":{"batch.kubernetes.io/controller-uid":"u1","batch.kubernetes.io/job-name":"pi","controller-uid":"u1","job-name":"pi"}},
			  "spec":{"selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":"u1"}},
			  "template":{"metadata":{"labels":{"batch.kubernetes.io/controller-uid":"u1","batch.kubernetes.io/job-name":"pi","controller-uid":"u1","job-name":"pi"}},"spec":{}}},"status":{}}`},
		{"own labels kept", prepareJobCreate,
			`{"metadata":{"name":"pi","uid":"u1","labels":{"team":"a"}},"spec":{"template":{"metadata":{"labels":{"job-name":"mine"}}}}}`,
			`{"metadata":{"name":"pi","uid":"u1","labels":{"team":"a"}},
			  "spec":{"selector":{"matchLabels":{"batch.kubernetes.io/controller-uid":"u1"}},
			  "template":{"metadata":{"labels":{"batch.kubernetes.io/controller-uid":"u1","batch.kubernetes.io/job-name":"pi","controller-uid":"u1","job-name":"mine"}}}},"status":{}}`},
		{"manualSelector", prepareJobCreate,
			`{"metadata":{"name":"pi","uid":"u1"},"spec":{"manualSelector":true,"selector":{"matchLabels":{"a":"b"}}}}`,
			`{"metadata":{"name":"pi","uid":"u1"},"spec":{"manualSelector":true,"selector":{"matchLabels":{"a":"b"}}},"status":{}}`},
	})
}

func TestDaemonSetTemplateGeneration(t *testing.T) {
	const k = "deprecated.daemonset.template.generation"
	obj := func(gen, image string) map[string]any {
		return map[string]any{"metadata": map[string]any{"annotations": map[string]any{k: gen}},
			"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"image": image}}}}}}
	}
	cases := []struct {
		name      string
		run       func() map[string]any
		wantValue string
	}{
		{"create starts at 1", func() map[string]any { o := obj("0", "a"); prepareDaemonSetCreate(o); return o }, "1"},
		{"create keeps a higher one", func() map[string]any { o := obj("5", "a"); prepareDaemonSetCreate(o); return o }, "5"},
		{"update without template change keeps the old one", func() map[string]any {
			o := obj("9", "a")
			prepareDaemonSetUpdate(o, obj("2", "a"))
			return o
		}, "2"},
		{"template change counts", func() map[string]any {
			o := obj("0", "b")
			prepareDaemonSetUpdate(o, obj("2", "a"))
			return o
		}, "3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.run()["metadata"].(map[string]any)["annotations"].(map[string]any)[k]
			if got != c.wantValue {
				t.Errorf("%s = %v, want %s", k, got, c.wantValue)
			}
		})
	}
}

// defaultAndPrepareService is a Service as created: defaults, then what the
// REST storage fills in.
func defaultAndPrepareService(obj map[string]any) {
	defaultService(obj)
	prepareServiceCreate(obj)
}

func TestPrepareServiceUpdate(t *testing.T) {
	old := map[string]any{"spec": map[string]any{"type": "ClusterIP", "clusterIP": "10.96.0.10", "clusterIPs": []any{"10.96.0.10"},
		"ipFamilies": []any{"IPv4"}, "ipFamilyPolicy": "SingleStack"}}
	runHookCases(t, []hookCase{
		{"allocated fields kept", func(o map[string]any) { prepareServiceUpdate(o, old) },
			`{"spec":{"type":"ClusterIP","ports":[{"port":81}]}}`,
			`{"spec":{"type":"ClusterIP","clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],"ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","ports":[{"port":81}]}}`},
		{"to ExternalName", func(o map[string]any) { prepareServiceUpdate(o, old) },
			`{"spec":{"type":"ExternalName","externalName":"x.example.com"}}`,
			`{"spec":{"type":"ExternalName","externalName":"x.example.com"}}`},
	})
}
