// Package differential compares kubesandbox's patch engines and field
// manager with the libraries kube-apiserver runs (the "reference"), on a
// generated corpus of objects, patches and apply sequences.
//
// This file holds the reference side: each function does what the real
// request handler does around the library call (decoding, error
// interpretation), so that the outcome is what a client would see.
package differential

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"

	jsonpatchv4 "gopkg.in/evanphx/json-patch.v4"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"
)

// Outcome is what a client sees: an object, or a Status.
type Outcome struct {
	Object  []byte // canonical JSON; nil on error
	Code    int    // 0 on success
	Reason  string
	Message string
	Causes  []string // "type|field|message", sorted
}

func (o Outcome) String() string {
	if o.Object != nil {
		return string(o.Object)
	}
	s := fmt.Sprintf("%d %s %q", o.Code, o.Reason, o.Message)
	if len(o.Causes) > 0 {
		s += fmt.Sprintf(" causes=%q", o.Causes)
	}
	return s
}

// statusOutcome turns a reference error into what the handler answers:
// API status errors as they are, anything else a 500 with no reason.
func statusOutcome(err error) Outcome {
	if s, ok := err.(apierrors.APIStatus); ok {
		st := s.Status()
		o := Outcome{Code: int(st.Code), Reason: string(st.Reason), Message: st.Message}
		if st.Details != nil {
			for _, c := range st.Details.Causes {
				o.Causes = append(o.Causes, string(c.Type)+"|"+c.Field+"|"+c.Message)
			}
			sort.Strings(o.Causes)
		}
		return o
	}
	return Outcome{Code: http.StatusInternalServerError, Message: err.Error()}
}

// typedFor returns a new typed object of a built-in kind.
func typedFor(kind string) runtime.Object {
	switch kind {
	case "Pod":
		return &corev1.Pod{}
	case "Service":
		return &corev1.Service{}
	case "Deployment":
		return &appsv1.Deployment{}
	}
	return nil
}

// ---- strategic merge patch ----

// RefSMP is the real handler's strategicPatchObject + applyPatchToObject
// up to the library call: the stored object as
// DefaultUnstructuredConverter.ToUnstructured gives it, the patch decoded
// by sigs.k8s.io/json (strict, as under the default fieldValidation=Warn),
// StrategicMergeMapPatch with the typed struct as schema, and
// interpretStrategicMergePatchError.
func RefSMP(kind string, original, patch []byte) Outcome {
	typed := typedFor(kind)
	if err := json.Unmarshal(original, typed); err != nil {
		return Outcome{Code: -1, Message: "bad original: " + err.Error()}
	}
	originalMap, err := runtime.DefaultUnstructuredConverter.ToUnstructured(typed)
	if err != nil {
		return Outcome{Code: -1, Message: "bad original: " + err.Error()}
	}
	patchMap := map[string]any{}
	if _, err := kjson.UnmarshalStrict(patch, &patchMap); err != nil {
		return statusOutcome(apierrors.NewBadRequest(err.Error()))
	}
	out, err := strategicpatch.StrategicMergeMapPatch(originalMap, patchMap, typedFor(kind))
	if err != nil {
		return statusOutcome(interpretStrategicMergePatchError(err))
	}
	b, err := json.Marshal(out)
	if err != nil {
		return statusOutcome(err)
	}
	return Outcome{Object: canonical(b)}
}

// interpretStrategicMergePatchError is the handler's function of that name.
func interpretStrategicMergePatchError(err error) error {
	switch err {
	case mergepatch.ErrBadJSONDoc, mergepatch.ErrBadPatchFormatForPrimitiveList, mergepatch.ErrBadPatchFormatForRetainKeys, mergepatch.ErrBadPatchFormatForSetElementOrderList, mergepatch.ErrUnsupportedStrategicMergePatchFormat:
		return apierrors.NewBadRequest(err.Error())
	case mergepatch.ErrNoListOfLists, mergepatch.ErrPatchContentNotMatchRetainKeys:
		return apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", err.Error(), 0, false)
	default:
		return err
	}
}

// TypedOriginal is original as the server stores it: decoded into the
// typed struct of kind and encoded again.
func TypedOriginal(kind string, original []byte) ([]byte, error) {
	t := typedFor(kind)
	if t == nil {
		return original, nil
	}
	if err := json.Unmarshal(original, t); err != nil {
		return nil, err
	}
	return json.Marshal(t)
}

// ---- JSON patch and merge patch ----

// jsonPatchOp is the handler's type of that name (the strict decoding
// pass of a JSON patch decodes into it).
type jsonPatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	From  string `json:"from"`
	Value any    `json:"value"`
}

// RefJSONPatch is the handler's applyJSPatch for application/json-patch+json
// (json-patch v4) under the default fieldValidation=Warn.
func RefJSONPatch(original, patch []byte) Outcome {
	var ops []jsonPatchOp
	if _, err := kjson.UnmarshalStrict(patch, &ops); err != nil {
		msg := strings.ReplaceAll(err.Error(), "differential.jsonPatchOp", "handlers.jsonPatchOp")
		return statusOutcome(apierrors.NewBadRequest("error decoding patch: " + msg))
	}
	p, err := jsonpatchv4.DecodePatch(patch)
	if err != nil {
		return statusOutcome(apierrors.NewBadRequest(err.Error()))
	}
	out, err := p.Apply(original)
	if err != nil {
		return statusOutcome(apierrors.NewGenericServerResponse(http.StatusUnprocessableEntity, "", schema.GroupResource{}, "", err.Error(), 0, false))
	}
	return Outcome{Object: canonical(out)}
}

// RefMergePatch is the handler's applyJSPatch for
// application/merge-patch+json, with its strict decoding (Warn).
func RefMergePatch(original, patch []byte) Outcome {
	v := map[string]any{}
	if _, err := kjson.UnmarshalStrict(patch, &v); err != nil {
		return statusOutcome(apierrors.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err)))
	}
	out, err := jsonpatchv4.MergePatch(original, patch)
	if err == jsonpatchv4.ErrBadJSONPatch {
		return statusOutcome(apierrors.NewBadRequest(err.Error()))
	}
	if err != nil {
		return statusOutcome(err)
	}
	return Outcome{Object: canonical(out)}
}

// ---- field managers ----

var (
	builtinTCOnce sync.Once
	builtinTC     managedfields.TypeConverter
)

// gvkOf returns the GroupVersionKind of a corpus kind.
func gvkOf(k *Kind) schema.GroupVersionKind {
	gv, _ := schema.ParseGroupVersion(k.APIVersion)
	return gv.WithKind(k.Name)
}

// RefFieldManager builds the field manager kube-apiserver builds for the
// kind: for built-in kinds NewDefaultFieldManager over the typed scheme,
// with the type converter of client-go's published SMD schema (generated
// from the same OpenAPI as the server's); for the Widget CRD
// NewDefaultCRDFieldManager with NewTypeConverter over the OpenAPI models
// the CRD handler builds (builder.BuildOpenAPIV3), structural-schema
// defaulting, and the status subresource's reset fields.
func RefFieldManager(k *Kind, subresource string) (*managedfields.FieldManager, error) {
	gvk := gvkOf(k)
	av := fieldpath.APIVersion(k.APIVersion)
	reset := map[fieldpath.APIVersion]*fieldpath.Set{av: fieldpath.NewSet(fieldpath.MakePathOrDie("status"))}
	if subresource == "status" {
		reset = map[fieldpath.APIVersion]*fieldpath.Set{av: fieldpath.NewSet(fieldpath.MakePathOrDie("spec"))}
	}
	if k.CRD {
		w, err := loadWidget()
		if err != nil {
			return nil, err
		}
		return managedfields.NewDefaultCRDFieldManager(w.tc, identityConvertor{}, w, unstructuredCreater{}, gvk,
			gvk.GroupVersion(), subresource, fieldpath.NewExcludeFilterSetMap(reset))
	}
	builtinTCOnce.Do(func() { builtinTC = applyconfigurations.NewTypeConverter(scheme.Scheme) })
	return managedfields.NewDefaultFieldManager(builtinTC, scheme.Scheme, scheme.Scheme, scheme.Scheme, gvk,
		gvk.GroupVersion(), subresource, fieldpath.NewExcludeFilterSetMap(reset))
}

// RefDecode decodes a stored object as the server holds it: the typed
// struct for built-in kinds, Unstructured for custom resources.
func RefDecode(k *Kind, b []byte) (runtime.Object, error) {
	if t := typedFor(k.Name); t != nil {
		return t, json.Unmarshal(b, t)
	}
	u := &unstructured.Unstructured{}
	return u, u.UnmarshalJSON(b)
}

// RefNew is the handler's Creater.New(kind): the live object of a create.
func RefNew(k *Kind) runtime.Object {
	if t := typedFor(k.Name); t != nil {
		return t
	}
	o, _ := unstructuredCreater{}.New(gvkOf(k))
	return o
}

// RefApplyBody decodes an apply body as the applyPatcher does.
func RefApplyBody(body []byte) (runtime.Object, error) {
	obj := &unstructured.Unstructured{Object: map[string]any{}}
	if err := yaml.Unmarshal(body, &obj.Object); err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding YAML: %v", err))
	}
	return obj, nil
}

// RefEncode encodes a result object as JSON.
func RefEncode(o runtime.Object) ([]byte, error) {
	if u, ok := o.(*unstructured.Unstructured); ok {
		return json.Marshal(u.Object)
	}
	return json.Marshal(o)
}

type identityConvertor struct{}

func (identityConvertor) Convert(in, out, context any) error { return fmt.Errorf("not implemented") }
func (identityConvertor) ConvertToVersion(in runtime.Object, _ runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}
func (identityConvertor) ConvertFieldLabel(schema.GroupVersionKind, string, string) (string, string, error) {
	return "", "", fmt.Errorf("not implemented")
}

type unstructuredCreater struct{}

func (unstructuredCreater) New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// widget is the Widget CRD on the reference side.
type widget struct {
	crd        *apiextensionsv1.CustomResourceDefinition
	structural *structuralschema.Structural
	tc         managedfields.TypeConverter
	schemaJSON []byte // spec.versions[0].schema.openAPIV3Schema
}

// Default is the CRD handler's unstructuredDefaulter.
func (w *widget) Default(in runtime.Object) {
	if u, ok := in.(runtime.Unstructured); ok {
		structuraldefaulting.Default(u.UnstructuredContent(), w.structural)
	}
}

var (
	widgetOnce sync.Once
	widgetVal  *widget
	widgetErr  error
)

// WidgetGroup replaces ${group} in the conformance fixture.
const WidgetGroup = "example.com"

// WidgetCRDPath is the conformance fixture the Widget schema comes from.
var WidgetCRDPath = "/work/shared/conformance/scenarios/_fixtures/widgets-crd.yaml"

func loadWidget() (*widget, error) {
	widgetOnce.Do(func() { widgetVal, widgetErr = readWidget() })
	return widgetVal, widgetErr
}

// WidgetSchemaJSON is the openAPIV3Schema of the Widget CRD, as JSON.
func WidgetSchemaJSON() ([]byte, error) {
	w, err := loadWidget()
	if err != nil {
		return nil, err
	}
	return w.schemaJSON, nil
}

func readWidget() (*widget, error) {
	b, err := os.ReadFile(WidgetCRDPath)
	if err != nil {
		return nil, err
	}
	b = bytes.ReplaceAll(b, []byte("${group}"), []byte(WidgetGroup))
	var doc struct {
		Steps []struct {
			Body json.RawMessage `json:"body"`
		} `json:"steps"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	if len(doc.Steps) == 0 {
		return nil, fmt.Errorf("no CRD in %s", WidgetCRDPath)
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := json.Unmarshal(doc.Steps[0].Body, crd); err != nil {
		return nil, err
	}
	v := crd.Spec.Versions[0]
	w := &widget{crd: crd}
	if w.schemaJSON, err = json.Marshal(v.Schema.OpenAPIV3Schema); err != nil {
		return nil, err
	}
	internal := &apiextensionsinternal.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, internal, nil); err != nil {
		return nil, err
	}
	if w.structural, err = structuralschema.NewStructural(internal); err != nil {
		return nil, err
	}
	// buildOpenAPIModelsForApply: the static spec only contributes types
	// the CRD's spec does not reference; the built spec carries ObjectMeta.
	spec, err := builder.BuildOpenAPIV3(crd, v.Name, builder.Options{})
	if err != nil {
		return nil, err
	}
	merged, err := builder.MergeSpecsV3(spec)
	if err != nil {
		return nil, err
	}
	if w.tc, err = managedfields.NewTypeConverter(merged.Components.Schemas, crd.Spec.PreserveUnknownFields); err != nil {
		return nil, err
	}
	return w, nil
}

// canonical re-encodes JSON with sorted keys and numbers as written; it
// returns the input unchanged if it is not JSON.
func canonical(b []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return b
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}
