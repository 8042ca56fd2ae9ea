// Package policy is the engine's ValidatingAdmissionPolicy half
// (core/cel.Policies), built from kube-apiserver v1.37.2's own code:
//
//   - k8s.io/apiserver/pkg/admission/plugin/policy/validating: the
//     dispatcher (Deny/Warn/Audit, the denial's Status and texts) and the
//     validator (validations, messageExpression, reason, auditAnnotations,
//     matchConditions through webhook/matchconditions);
//   - admission/plugin/policy/generic: CollectParams (paramRef name,
//     namespace, selector, parameterNotFoundAction) and the policy matcher;
//   - admission/plugin/policy/matching: matchConstraints, resourceRules,
//     excludeResourceRules, namespaceSelector, objectSelector, matchPolicy;
//   - admission/plugin/cel and cel/environment: the compilers, variables.
//
// What kube-apiserver keeps in informers (policies, bindings, params, the
// namespace) comes with each request from the core, which reads them from
// its store; here they fill in-memory listers for the real code. Compiled
// policies are kept per uid and resourceVersion.
//
// compilePolicy (compile.go) repeats plugin.go's unexported compilePolicy;
// CheckPolicy (check.go) repeats the CEL part of
// k8s.io/kubernetes/pkg/apis/admissionregistration/validation.
package policy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/policy/generic"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/warning"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/kubesandbox/kubesandbox/core/cel"
)

// Engine evaluates policies; safe for concurrent use.
type Engine struct {
	mu       sync.Mutex
	compiled map[string]validating.Validator // uid/resourceVersion → validator
}

// New returns an engine with an empty compile cache.
func New() *Engine { return &Engine{compiled: map[string]validating.Validator{}} }

var scheme = runtime.NewScheme()

// Admit evaluates the policies bound to one write, as kube-apiserver's
// ValidatingAdmissionPolicy plugin does: a denial comes back as kube's
// Status (JSON), Warn as warning texts; Audit leaves no visible trace.
func (e *Engine) Admit(req cel.AdmissionRequest) (cel.AdmissionResponse, error) {
	attrs, err := attributes(req)
	if err != nil {
		return cel.AdmissionResponse{}, err
	}
	nsIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	if len(req.NamespaceObject) > 0 {
		ns := &corev1.Namespace{}
		if err := json.Unmarshal(req.NamespaceObject, ns); err != nil {
			return cel.AdmissionResponse{}, fmt.Errorf("namespace: %w", err)
		}
		_ = nsIndexer.Add(ns)
	}
	matcher := generic.NewPolicyMatcher(matching.NewMatcher(corelisters.NewNamespaceLister(nsIndexer), nil))
	hooks, err := e.hooks(req)
	if err != nil {
		return cel.AdmissionResponse{}, err
	}
	rec := &warnings{}
	ctx := warning.WithWarningRecorder(context.Background(), rec)
	d := validating.NewDispatcher(allowAll{}, matcher)
	err = d.Dispatch(ctx, attrs, admission.NewObjectInterfacesFromScheme(scheme), hooks)
	resp := cel.AdmissionResponse{Warnings: rec.texts}
	if err == nil {
		return resp, nil
	}
	var se apierrors.APIStatus
	if !errors.As(err, &se) {
		se = apierrors.NewInternalError(err)
	}
	st := se.Status()
	st.Kind, st.APIVersion = "Status", "v1"
	if resp.Denied, err = json.Marshal(st); err != nil {
		return cel.AdmissionResponse{}, err
	}
	return resp, nil
}

// hooks builds the dispatcher's view of the policies: one hook per policy
// with bindings (bindings to missing policies are skipped, as kube does).
func (e *Engine) hooks(req cel.AdmissionRequest) ([]validating.PolicyHook, error) {
	byPolicy := map[string][]*admissionregistrationv1.ValidatingAdmissionPolicyBinding{}
	params := map[string]map[string][]json.RawMessage{} // policy → binding → params
	var order []string
	for _, b := range req.Bindings {
		vb := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{}
		if err := json.Unmarshal(b.Binding, vb); err != nil {
			return nil, fmt.Errorf("binding: %w", err)
		}
		pn := vb.Spec.PolicyName
		if _, ok := byPolicy[pn]; !ok {
			order = append(order, pn)
			params[pn] = map[string][]json.RawMessage{}
		}
		byPolicy[pn] = append(byPolicy[pn], vb)
		params[pn][vb.Name] = b.Params
	}
	policies := map[string]cel.PolicyInput{}
	for _, p := range req.Policies {
		var m struct {
			Metadata struct{ Name string } `json:"metadata"`
		}
		if err := json.Unmarshal(p.Policy, &m); err != nil {
			return nil, fmt.Errorf("policy: %w", err)
		}
		policies[m.Metadata.Name] = p
	}
	var hooks []validating.PolicyHook
	for _, pn := range order {
		in, ok := policies[pn]
		if !ok {
			continue
		}
		vp := &admissionregistrationv1.ValidatingAdmissionPolicy{}
		if err := json.Unmarshal(in.Policy, vp); err != nil {
			return nil, fmt.Errorf("policy: %w", err)
		}
		h := validating.PolicyHook{Policy: vp, Bindings: byPolicy[pn], Evaluator: e.validator(vp)}
		if pk := vp.Spec.ParamKind; pk != nil {
			gv, err := schema.ParseGroupVersion(pk.APIVersion)
			if err != nil {
				continue // kube's source logs it and leaves the policy out
			}
			switch in.ParamScope {
			case "Namespaced", "Cluster":
				inf, err := newParamInformer(params[pn], gv.WithKind(pk.Kind), byPolicy[pn])
				if err != nil {
					return nil, err
				}
				h.ParamInformer = inf
				h.ParamScope = meta.RESTScopeRoot
				if in.ParamScope == "Namespaced" {
					h.ParamScope = meta.RESTScopeNamespace
				}
			default:
				h.ConfigurationError = fmt.Errorf("failed to find resource referenced by paramKind: '%v'", gv.WithKind(pk.Kind))
			}
		}
		hooks = append(hooks, h)
	}
	return hooks, nil
}

// validator compiles a policy once per uid and resourceVersion.
func (e *Engine) validator(p *admissionregistrationv1.ValidatingAdmissionPolicy) validating.Validator {
	key := string(p.UID) + "/" + p.ResourceVersion + "/" + p.Name
	e.mu.Lock()
	defer e.mu.Unlock()
	if v, ok := e.compiled[key]; ok {
		return v
	}
	if len(e.compiled) > 256 {
		clear(e.compiled)
	}
	v := compilePolicy(p)
	e.compiled[key] = v
	return v
}

// attributes is the admission.Attributes of the write.
func attributes(req cel.AdmissionRequest) (admission.Attributes, error) {
	obj, err := unstructuredOrNil(req.Object)
	if err != nil {
		return nil, fmt.Errorf("object: %w", err)
	}
	old, err := unstructuredOrNil(req.Old)
	if err != nil {
		return nil, fmt.Errorf("old object: %w", err)
	}
	var opts runtime.Object
	if o, err := unstructuredOrNil(req.Options); err == nil && o != nil {
		opts = o
	}
	kind := schema.GroupVersionKind{Group: req.Kind.Group, Version: req.Kind.Version, Kind: req.Kind.Kind}
	res := schema.GroupVersionResource{Group: req.Resource.Group, Version: req.Resource.Version, Resource: req.Resource.Resource}
	u := &user.DefaultInfo{Name: req.UserInfo.Username, UID: req.UserInfo.UID, Groups: req.UserInfo.Groups}
	return admission.NewAttributesRecord(obj, old, kind, req.Namespace, req.Name, res, req.SubResource,
		admission.Operation(req.Operation), opts, req.DryRun, u), nil
}

// unstructuredOrNil decodes a JSON object; empty or null is nil (an
// untyped nil, so that the attributes hold no object).
func unstructuredOrNil(b json.RawMessage) (runtime.Object, error) {
	if len(b) == 0 || string(b) == "null" {
		return nil, nil
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(b); err != nil {
		return nil, err
	}
	return u, nil
}

// warnings collects Warn texts (warning.Recorder).
type warnings struct {
	mu    sync.Mutex
	texts []string
}

func (w *warnings) AddWarning(agent, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.texts = append(w.texts, text)
}

var _ cel.Policies = (*Engine)(nil)
