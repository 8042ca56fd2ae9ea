package policy

import (
	"encoding/json"
	"fmt"
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/cel/openapi/resolver"
	"k8s.io/kube-openapi/pkg/validation/spec"

	"github.com/kubesandbox/kubesandbox/core/cel"
)

// TypeCheck is kube-controller-manager's validatingadmissionpolicy-status
// controller's type check (pkg/controller/validatingadmissionpolicystatus
// reconcile → validating.TypeChecker.Check), run by the real TypeChecker
// on what the request carries instead of the controller's discovery: the
// RESTMapper (req.Kinds) and the OpenAPI v3 documents (req.Schemas), read
// as resolver.ClientDiscoveryResolver reads them.
//
//	TypeCheck({policy: {spec: {matchConstraints: {resourceRules: [{apiGroups: [apps],
//	  apiVersions: [v1], resources: [deployments], ...}]},
//	  validations: [{expression: "object.spec.replicass <= 5"}]}}, kinds, schemas})
//	→ [{fieldRef: "spec.validations[0].expression", warning: "apps/v1, Kind=Deployment:
//	   ERROR: <input>:1:12: undefined field 'replicass'\n | object.spec.replicass <= 5\n | ...........^\n"}]
func (e *Engine) TypeCheck(req cel.TypeCheckRequest) ([]cel.ExpressionWarning, error) {
	p := &admissionregistrationv1.ValidatingAdmissionPolicy{}
	if err := json.Unmarshal(req.Policy, p); err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	docs := map[string]*schemaResponse{}
	for path, b := range req.Schemas {
		d := &schemaResponse{}
		if err := json.Unmarshal(b, d); err != nil {
			return nil, fmt.Errorf("schema %s: %w", path, err)
		}
		docs[path] = d
	}
	tc := &validating.TypeChecker{SchemaResolver: docResolver(docs), RestMapper: kindMapper(req.Kinds)}
	out := []cel.ExpressionWarning{}
	for _, w := range tc.Check(p) {
		out = append(out, cel.ExpressionWarning{FieldRef: w.FieldRef, Warning: w.Warning})
	}
	return out, nil
}

// kindMapper is the RESTMapper of the type checker: only KindsFor, of a
// fully specified resource (the checker skips wildcards and subresources).
type kindMapper []cel.ResourceKind

func (m kindMapper) KindsFor(gvr schema.GroupVersionResource) ([]schema.GroupVersionKind, error) {
	var out []schema.GroupVersionKind
	for _, rk := range m {
		if rk.Resource.Group == gvr.Group && rk.Resource.Version == gvr.Version && rk.Resource.Resource == gvr.Resource {
			out = append(out, schema.GroupVersionKind{Group: rk.Kind.Group, Version: rk.Kind.Version, Kind: rk.Kind.Kind})
		}
	}
	if len(out) == 0 {
		return nil, &meta.NoResourceMatchError{PartialResource: gvr}
	}
	return out, nil
}

func (m kindMapper) KindFor(gvr schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	ks, err := m.KindsFor(gvr)
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	return ks[0], nil
}

func (m kindMapper) ResourceFor(in schema.GroupVersionResource) (schema.GroupVersionResource, error) {
	return schema.GroupVersionResource{}, &meta.NoResourceMatchError{PartialResource: in}
}

func (m kindMapper) ResourcesFor(in schema.GroupVersionResource) ([]schema.GroupVersionResource, error) {
	return nil, &meta.NoResourceMatchError{PartialResource: in}
}

func (m kindMapper) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	return nil, &meta.NoKindMatchError{GroupKind: gk, SearchedVersions: versions}
}

func (m kindMapper) RESTMappings(gk schema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	return nil, &meta.NoKindMatchError{GroupKind: gk, SearchedVersions: versions}
}

func (m kindMapper) ResourceSingularizer(resource string) (string, error) { return resource, nil }

// docResolver is resolver.ClientDiscoveryResolver over documents already
// fetched: the schema of a kind is the one whose
// x-kubernetes-group-version-kind names it, its $refs populated.
type docResolver map[string]*schemaResponse

// schemaResponse is the part of an OpenAPI v3 document read (resolver's
// own, unexported).
type schemaResponse struct {
	Components struct {
		Schemas map[string]*spec.Schema `json:"schemas"`
	} `json:"components"`
}

const refPrefix = "#/components/schemas/"

func (r docResolver) ResolveSchema(gvk schema.GroupVersionKind) (*spec.Schema, error) {
	path := "apis/" + gvk.Group + "/" + gvk.Version
	if gvk.Group == "" {
		path = "api/" + gvk.Version
	}
	resp, ok := r[path]
	if !ok {
		return nil, fmt.Errorf("cannot resolve group version %q: %w", gvk.GroupVersion(), resolver.ErrSchemaNotFound)
	}
	ref, err := resolveRef(resp, gvk)
	if err != nil {
		return nil, err
	}
	return resolver.PopulateRefs(func(ref string) (*spec.Schema, bool) {
		s, ok := resp.Components.Schemas[strings.TrimPrefix(ref, refPrefix)]
		return s, ok
	}, ref)
}

// resolveRef is resolver's resolveRef: the schema naming gvk.
func resolveRef(resp *schemaResponse, gvk schema.GroupVersionKind) (string, error) {
	for ref, s := range resp.Components.Schemas {
		var gvks []schema.GroupVersionKind
		if err := s.Extensions.GetObject("x-kubernetes-group-version-kind", &gvks); err != nil {
			return "", err
		}
		for _, g := range gvks {
			if g == gvk {
				return ref, nil
			}
		}
	}
	return "", fmt.Errorf("cannot resolve group version kind %q: %w", gvk, resolver.ErrSchemaNotFound)
}

var (
	_ meta.RESTMapper         = kindMapper(nil)
	_ resolver.SchemaResolver = docResolver(nil)
)
