// Package crd is the CRD half of kubesandbox's CEL engine
// (core/cel.CRDRules): the x-kubernetes-validations of CRD schemas,
// evaluated by the real k8s.io/apiextensions-apiserver v0.37.2 code.
//
// What it imports and why (each is a cost to cel.wasm):
//   - apis/apiextensions and its v1: the CRD's types and the v1 → internal
//     conversion kube-apiserver validates and serves from;
//   - apiserver/schema (structural schema), schema/cel (compilation, the
//     Validator with ratcheting) and schema/defaulting (whether a schema's
//     defaults are valid, which decides whether kube compiles its rules);
//   - k8s.io/apiserver/pkg/cel/{common,environment} and pkg/apis/cel (the
//     environments and the cost budgets).
//
// Not imported: apis/apiextensions/validation (the whole CRD validation,
// which links go-openapi and client-go); check.go and celcontext.go hold its
// CEL part, compared with it by check_test.go.
//
// Worked example:
//
//	r := crd.New()
//	resp, _ := r.ValidateCustomResource(cel.CustomResourceRequest{
//		CRDKey: "uid/42", CRD: crdJSON, Version: "v1",
//		Object: []byte(`{"spec":{"replicas":5,"maxReplicas":3}}`)})
//	// resp.Causes[0] = {Type: "FieldValueInvalid", Field: "spec",
//	//   Detail: "failed rule: self.replicas <= self.maxReplicas",
//	//   Message: "Invalid value: failed rule: self.replicas <= self.maxReplicas"}
package crd

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	schemacel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/warning"

	"github.com/kubesandbox/kubesandbox/core/cel"
)

// Rules evaluates CRD rules; it keeps the validators it compiled per CRD
// key and version. Safe for concurrent use.
type Rules struct {
	mu    sync.Mutex
	cache map[cacheKey]*compiled
}

type cacheKey struct{ crd, version string }

// compiled is what the customresource strategy holds for one version.
type compiled struct {
	schema    *structuralschema.Structural
	validator *schemacel.Validator // nil: the schema has no rules
}

// maxCached bounds the cache: CRD keys change with every CRD write.
const maxCached = 256

// New returns an empty engine half.
func New() *Rules { return &Rules{cache: map[cacheKey]*compiled{}} }

var _ cel.CRDRules = (*Rules)(nil)

// CheckCRD returns the CEL causes of a CRD being created or updated.
func (r *Rules) CheckCRD(req cel.CheckCRDRequest) ([]cel.Cause, error) {
	crd, err := decodeCRD(req.CRD)
	if err != nil {
		return nil, err
	}
	var old *apiextensions.CustomResourceDefinition
	if len(req.Old) > 0 && string(req.Old) != "null" {
		if old, err = decodeCRD(req.Old); err != nil {
			return nil, err
		}
	}
	return causes(checkCRD(context.Background(), crd, old)), nil
}

// ValidateCustomResource evaluates a version's rules on one write, as the
// customresource strategy's Validate / ValidateUpdate (and the status
// strategy's, which evaluates the same rules on the whole object) do:
// with the runtime cost budget and, on update, ratcheting (a failure of a
// rule whose value is unchanged since the stored object is a warning, as
// kube adds it to the request's warnings).
func (r *Rules) ValidateCustomResource(req cel.CustomResourceRequest) (cel.CustomResourceResponse, error) {
	var out cel.CustomResourceResponse
	c, err := r.compiledFor(req)
	if err != nil {
		return out, err
	}
	if c.validator == nil {
		return out, nil
	}
	obj, err := decodeValue(req.Object)
	if err != nil {
		return out, fmt.Errorf("object: %w", err)
	}
	rec := &warnings{}
	ctx := warning.WithWarningRecorder(context.Background(), rec)
	if len(req.Old) == 0 || string(req.Old) == "null" {
		errs, _ := c.validator.Validate(ctx, nil, c.schema, obj, nil, celconfig.RuntimeCELCostBudget)
		return cel.CustomResourceResponse{Causes: causes(errs), Warnings: rec.texts}, nil
	}
	old, err := decodeValue(req.Old)
	if err != nil {
		return out, fmt.Errorf("old: %w", err)
	}
	correlated := common.NewCorrelatedObject(obj, old, &model.Structural{Structural: c.schema})
	errs, _ := c.validator.Validate(ctx, nil, c.schema, obj, old, celconfig.RuntimeCELCostBudget, schemacel.WithRatcheting(correlated))
	return cel.CustomResourceResponse{Causes: causes(errs), Warnings: rec.texts}, nil
}

// warnings records what the validator adds to the request's warnings.
type warnings struct{ texts []string }

func (w *warnings) AddWarning(agent, text string) { w.texts = append(w.texts, text) }

// compiledFor returns the cached validator of req's CRD and version,
// building it as the CRD handler and the strategy do.
func (r *Rules) compiledFor(req cel.CustomResourceRequest) (*compiled, error) {
	k := cacheKey{req.CRDKey, req.Version}
	r.mu.Lock()
	c, ok := r.cache[k]
	r.mu.Unlock()
	if ok && req.CRDKey != "" {
		return c, nil
	}
	if len(req.CRD) == 0 {
		return nil, cel.ErrUnknownCRDKey
	}
	crd, err := decodeCRD(req.CRD)
	if err != nil {
		return nil, err
	}
	ss, err := structuralFor(crd, req.Version)
	if err != nil {
		return nil, err
	}
	c = &compiled{schema: ss}
	if ss != nil {
		c.validator = schemacel.NewValidator(ss, true, celconfig.PerCallLimit)
	}
	if req.CRDKey != "" {
		r.mu.Lock()
		if len(r.cache) >= maxCached {
			clear(r.cache)
		}
		r.cache[k] = c
		r.mu.Unlock()
	}
	return c, nil
}

// structuralFor is the CRD handler's structural schema of a version
// (customresource_handler.go): internal conversion, NewStructural, a copy
// with defaults pruned. nil when the version has no schema.
func structuralFor(crd *apiextensions.CustomResourceDefinition, version string) (*structuralschema.Structural, error) {
	val, err := apiextensions.GetSchemaForVersion(crd, version)
	if err != nil {
		return nil, err
	}
	if val == nil || val.OpenAPIV3Schema == nil {
		return nil, nil
	}
	s, err := structuralschema.NewStructural(val.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("the server could not properly serve the CR schema: %w", err)
	}
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, fmt.Errorf("the server could not properly serve the CR schema: %w", err)
	}
	return s, nil
}

// decodeCRD reads apiextensions.k8s.io/v1 JSON into the internal version.
func decodeCRD(b []byte) (*apiextensions.CustomResourceDefinition, error) {
	var v1 apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal(b, &v1); err != nil {
		return nil, fmt.Errorf("crd: %w", err)
	}
	var out apiextensions.CustomResourceDefinition
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&v1, &out, nil); err != nil {
		return nil, fmt.Errorf("crd: %w", err)
	}
	return &out, nil
}

// decodeValue reads JSON as unstructured holds it (int64 for integers).
func decodeValue(b []byte) (any, error) {
	var v any
	if err := utiljson.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// causes carries field errors across the JSON boundary: each with kube's
// message (ErrorBody), and its bad value when it is a scalar.
func causes(errs field.ErrorList) []cel.Cause {
	if len(errs) == 0 {
		return nil
	}
	out := make([]cel.Cause, 0, len(errs))
	for _, e := range errs {
		c := cel.Cause{Type: string(e.Type), Field: e.Field, Detail: e.Detail, Message: e.ErrorBody()}
		switch v := e.BadValue.(type) {
		case string, bool, int, int32, int64, float32, float64:
			c.BadValue = v
		}
		out = append(out, c)
	}
	return out
}
