package main

import (
	"fmt"

	"github.com/kubesandbox/kubesandbox/core/cel"
)

// call is cel.Dispatch with a panic turned into the call's error.
func call(e cel.Engine, method string, req []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("cel: %s panicked: %v", method, r)
		}
	}()
	return cel.Dispatch(e, method, req)
}

// warmCRD is a CRD with one rule: checking it builds what every later call
// shares (the CEL environment and its declarations), ~1.4 s in node.
const warmCRD = `{"crd": {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "warms.warm.kubesandbox.dev"},
  "spec": {"group": "warm.kubesandbox.dev", "scope": "Namespaced", "names": {"plural": "warms", "kind": "Warm"},
    "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object",
      "properties": {"spec": {"type": "object", "x-kubernetes-validations": [{"rule": "self.a <= self.b"}],
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}}}}}]}}}`

// warm checks warmCRD once at start-up, before cel.wasm says it is ready:
// the load already holds the worker, and a restored sandbox (which loads
// cel.wasm in the background) then answers its first write under a rule
// without that wait. Its answer is dropped; it must not fail.
func warm(e cel.Engine) error {
	_, err := call(e, "CheckCRD", []byte(warmCRD))
	return err
}

// otherPart is the error of a method the other part of the engine serves
// (cel-crd.wasm and cel-policy.wasm each serve two of the four).
func otherPart(method string) error {
	return fmt.Errorf("cel: %s is served by the other part of the engine (web/worker.js routes it there)", method)
}

// warmPolicy is a ValidatingAdmissionPolicy with a variable and a
// messageExpression: checking it builds the policy plugin's CEL
// environments, as warmCRD does for the CRD part.
const warmPolicy = `{"object": {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
  "metadata": {"name": "warm"},
  "spec": {"failurePolicy": "Fail",
    "matchConstraints": {"resourceRules": [{"apiGroups": ["apps"], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"], "resources": ["deployments"]}]},
    "variables": [{"name": "r", "expression": "object.spec.replicas"}],
    "validations": [{"expression": "variables.r <= 5", "messageExpression": "'at most 5, not ' + string(variables.r)"}]}}}`

// warmPolicyCheck checks warmPolicy once at start-up (the policy part's
// warm); its answer is dropped, it must not fail.
func warmPolicyCheck(e cel.Engine) error {
	_, err := call(e, "CheckPolicy", []byte(warmPolicy))
	return err
}
