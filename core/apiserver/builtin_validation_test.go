package apiserver_test

// The examples, as a new user meets them: built-in objects that
// kube-apiserver refuses get its 422, with its message and causes, and
// nothing is stored.

import (
	"reflect"
	"strings"
	"testing"
)

func TestBuiltinValidationHTTP(t *testing.T) {
	s := relServer(t)
	const deploys = "/apis/apps/v1/namespaces/rel/deployments"
	cases := []struct {
		name, path, body string
		message          string
		causes           []map[string]any
	}{
		{"pod without containers", "/api/v1/namespaces/rel/pods",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1"},"spec":{"containers":[]}}`,
			`Pod "p1" is invalid: spec.containers: Required value`,
			[]map[string]any{{"reason": "FieldValueRequired", "message": "Required value", "field": "spec.containers"}}},
		{"container without image", "/api/v1/namespaces/rel/pods",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p2"},"spec":{"containers":[{"name":"c"}]}}`,
			`Pod "p2" is invalid: spec.containers[0].image: Required value`,
			[]map[string]any{{"reason": "FieldValueRequired", "message": "Required value", "field": "spec.containers[0].image"}}},
		{"deployment selector not matching its template", deploys,
			`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d1"},"spec":{"selector":{"matchLabels":{"app":"web"}},` +
				`"template":{"metadata":{"labels":{"app":"api"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`,
			"Deployment.apps \"d1\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels`",
			[]map[string]any{{"reason": "FieldValueInvalid", "message": "Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels`", "field": "spec.template.metadata.labels"}}},
		{"service without ports", "/api/v1/namespaces/rel/services",
			`{"apiVersion":"v1","kind":"Service","metadata":{"name":"s1"},"spec":{"selector":{"app":"web"}}}`,
			`Service "s1" is invalid: spec.ports: Required value`,
			[]map[string]any{{"reason": "FieldValueRequired", "message": "Required value", "field": "spec.ports"}}},
		{"cronjob with a four-field schedule", "/apis/batch/v1/namespaces/rel/cronjobs",
			`{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"c1"},"spec":{"schedule":"* * * *","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}}}`,
			`CronJob.batch "c1" is invalid: spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]`,
			[]map[string]any{{"reason": "FieldValueInvalid", "message": `Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]`, "field": "spec.schedule"}}},
		{"job with the default restart policy", "/apis/batch/v1/namespaces/rel/jobs",
			`{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j1"},"spec":{"template":{"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`,
			`Job.batch "j1" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`,
			[]map[string]any{{"reason": "FieldValueRequired", "message": `Required value: valid values: "OnFailure", "Never"`, "field": "spec.template.spec.restartPolicy"}}},
		{"several causes, in kube's order", "/api/v1/namespaces/rel/pods",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p3"},"spec":{"restartPolicy":"Sometimes","containers":[{},{"name":"c","image":"x","ports":[{"containerPort":0}]}]}}`,
			`Pod "p3" is invalid: [spec.containers[0].name: Required value, spec.containers[0].image: Required value, spec.containers[1].ports[0].containerPort: Required value, spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"]`,
			[]map[string]any{
				{"reason": "FieldValueRequired", "message": "Required value", "field": "spec.containers[0].name"},
				{"reason": "FieldValueRequired", "message": "Required value", "field": "spec.containers[0].image"},
				{"reason": "FieldValueRequired", "message": "Required value", "field": "spec.containers[1].ports[0].containerPort"},
				{"reason": "FieldValueNotSupported", "message": `Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`, "field": "spec.restartPolicy"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, _ := relFingerprint(s)
			r := relDo(s, "POST", c.path, relJSON, c.body)
			relInvalid(t, r, c.message)
			st, _ := relParseStatus(r)
			var causes []map[string]any
			if cs, ok := st.Details["causes"].([]any); ok {
				for _, x := range cs {
					causes = append(causes, x.(map[string]any))
				}
			}
			if !reflect.DeepEqual(causes, c.causes) {
				t.Errorf("causes\n got %v\nwant %v", causes, c.causes)
			}
			if after, _ := relFingerprint(s); string(after) != string(before) {
				t.Error("a refused create changed the store")
			}
		})
	}

	t.Run("deployment selector is immutable", func(t *testing.T) {
		relMust(t, s, 201, "POST", deploys, relJSON, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d2"},"spec":{"selector":{"matchLabels":{"app":"web"}},`+
			`"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`)
		r := relDo(s, "PATCH", deploys+"/d2", relMerge, `{"spec":{"selector":{"matchLabels":{"app":"web","tier":"x"}},"template":{"metadata":{"labels":{"tier":"x"}}}}}`)
		relInvalid(t, r, `Deployment.apps "d2" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"x"}}: field is immutable`)
	})
	t.Run("a pod's image may change, its ports not", func(t *testing.T) {
		relMust(t, s, 201, "POST", "/api/v1/namespaces/rel/pods", relJSON, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p4"},"spec":{"containers":[{"name":"c","image":"nginx:1"}]}}`)
		relMust(t, s, 200, "PATCH", "/api/v1/namespaces/rel/pods/p4", relSMP, `{"spec":{"containers":[{"name":"c","image":"nginx:2"}]}}`)
		r := relDo(s, "PATCH", "/api/v1/namespaces/rel/pods/p4", relSMP, `{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80}]}]}}`)
		st, err := relParseStatus(r)
		if err != nil || r.Code != 422 || !strings.HasPrefix(st.Message, "Pod \"p4\" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,") {
			t.Errorf("got %d %.200q (%v)", r.Code, st.Message, err)
		}
	})
}
