package controllers

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/cel"
	"github.com/kubesandbox/kubesandbox/core/internal/respbuf"
)

// The validatingadmissionpolicy-status controller of kube-controller-manager
// (pkg/controller/validatingadmissionpolicystatus): once per generation of
// a ValidatingAdmissionPolicy, type-check its expressions against the
// schemas of the kinds its matchConstraints name and apply
// status.observedGeneration and status.typeChecking.expressionWarnings
// (server-side apply of /status, field manager
// "validatingadmissionpolicy-status", forced).
//
// The type check is the CEL engine's (core/cel Policies.TypeCheck: the real
// validating.TypeChecker); this side gathers what kube-controller-manager
// reads through discovery: for every group-version named without wildcard
// in the policy's resourceRules, its resources (GET /apis/G/V) and its
// OpenAPI v3 document (GET /openapi/v3/apis/G/V); the document of the
// paramKind's group-version too. The engine is the API
// server's (celServer); without one, no status is written.
//
//	POST validatingadmissionpolicies {spec: {matchConstraints: {resourceRules:
//	  [{apiGroups: [apps], apiVersions: [v1], resources: [deployments]}]},
//	  validations: [{expression: "object.spec.replicass <= 5"}]}}
//	→ TypeCheck({policy, kinds: [deployments → Deployment, ...], schemas: {"apis/apps/v1": ...}})
//	→ PATCH .../status (apply) {status: {observedGeneration: 1, typeChecking:
//	  {expressionWarnings: [{fieldRef: "spec.validations[0].expression",
//	  warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicass'..."}]}}}

var kPolicies = kindInfo{"admissionregistration.k8s.io", "v1", "validatingadmissionpolicies", "ValidatingAdmissionPolicy", false}

const policyStatusManager = "validatingadmissionpolicy-status"

// celServer is an API server with a CEL engine (core/apiserver.Server).
type celServer interface{ CEL() cel.Engine }

// syncPolicyStatus is the controller's reconcile.
func (m *Manager) syncPolicyStatus(p obj) error {
	cs, ok := m.api.(celServer)
	if !ok || cs.CEL() == nil || deleting(p) {
		return nil
	}
	gen := generation(p)
	if observed, _ := num(p, "status", "observedGeneration"); gen <= observed {
		return nil
	}
	req := cel.TypeCheckRequest{Schemas: map[string]json.RawMessage{}}
	var err error
	if req.Policy, err = json.Marshal(p); err != nil {
		return err
	}
	for _, gv := range policyGroupVersions(p) {
		kinds, doc, ok := m.discover(gv)
		if ok {
			req.Kinds = append(req.Kinds, kinds...)
			req.Schemas[gv] = doc
		}
	}
	// params are typed by paramKind's schema
	if pk := str(p, "spec", "paramKind", "apiVersion"); pk != "" {
		gv := "apis/" + pk
		if !strings.Contains(pk, "/") {
			gv = "api/" + pk
		}
		if _, done := req.Schemas[gv]; !done {
			if doc, code := m.cm.get(m.ctx, "/openapi/v3/"+gv); code == http.StatusOK {
				req.Schemas[gv] = doc
			}
		}
	}
	warnings, err := cs.CEL().TypeCheck(req)
	if err != nil {
		return err
	}
	tc := map[string]any{}
	if len(warnings) > 0 {
		tc["expressionWarnings"] = warnings
	}
	apply := map[string]any{
		"apiVersion": kPolicies.apiVersion(), "kind": kPolicies.Kind,
		"metadata": map[string]any{"name": name(p)},
		"status":   map[string]any{"observedGeneration": gen, "typeChecking": tc},
	}
	q := url.Values{"fieldManager": {policyStatusManager}, "force": {"true"}}
	_, err = m.cm.do(m.ctx, http.MethodPatch, kPolicies.path("", name(p), "status")+"?"+q.Encode(), ctApply, apply)
	return ignoreRace(err)
}

// policyGroupVersions are the discovery paths ("apis/apps/v1", "api/v1")
// of the group-versions the policy's resourceRules name, as the type
// checker considers them: a rule with a wildcard group or version names
// none.
func policyGroupVersions(p obj) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range list(p, "spec", "matchConstraints", "resourceRules") {
		rule, _ := r.(map[string]any)
		groups, versions := strs(rule["apiGroups"]), strs(rule["apiVersions"])
		if wild(groups) || wild(versions) {
			continue
		}
		for _, g := range groups {
			for _, v := range versions {
				gv := "apis/" + g + "/" + v
				if g == "" {
					gv = "api/" + v
				}
				if !seen[gv] {
					seen[gv] = true
					out = append(out, gv)
				}
			}
		}
	}
	return out
}

func strs(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func wild(l []string) bool {
	for _, s := range l {
		if strings.Contains(s, "*") {
			return true
		}
	}
	return false
}

// discover reads a group-version's resources (kinds of the RESTMapper) and
// OpenAPI v3 document; ok is false when the server does not serve it.
func (m *Manager) discover(gv string) (kinds []cel.ResourceKind, doc json.RawMessage, ok bool) {
	b, code := m.cm.get(m.ctx, "/"+gv)
	if code != http.StatusOK {
		return nil, nil, false
	}
	rl := decode(b)
	group, version, found := strings.Cut(str(rl, "groupVersion"), "/")
	if !found {
		group, version = "", str(rl, "groupVersion")
	}
	for _, x := range list(rl, "resources") {
		r, _ := x.(map[string]any)
		res, kind := str(r, "name"), str(r, "kind")
		if strings.Contains(res, "/") {
			continue // subresources: the checker skips them
		}
		kinds = append(kinds, cel.ResourceKind{
			Resource: cel.GVR{Group: group, Version: version, Resource: res},
			Kind:     cel.GVK{Group: group, Version: version, Kind: kind},
		})
	}
	doc, code = m.cm.get(m.ctx, "/openapi/v3/"+gv)
	if code != http.StatusOK {
		return kinds, nil, false
	}
	return kinds, doc, true
}

// get answers a GET as it is (body and status code).
func (c client) get(ctx context.Context, path string) ([]byte, int) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://kubesandbox.local"+path, nil)
	if err != nil {
		return nil, 0
	}
	req.Header.Set("User-Agent", c.ua)
	req.Header.Set("Accept", "application/json")
	rec := respbuf.New()
	c.h.ServeHTTP(rec, req)
	return rec.Body.Bytes(), rec.Code()
}
