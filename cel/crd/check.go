package crd

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	celgo "github.com/google/cel-go/cel"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

// This file is the CEL part of k8s.io/apiextensions-apiserver's
// ValidateCustomResourceDefinition(Update) (pkg/apis/apiextensions/validation
// validation.go v0.37.2): the walk of ValidateCustomResourceDefinitionOpenAPISchema
// reduced to what concerns x-kubernetes-validations, with the same texts,
// paths and order. The rest of the CRD's validation is the core's
// (core/builtin/crd.go). check_test.go compares it with the real function.

// The budgets of validation.go.
const (
	StaticEstimatedCostLimit    = 10000000
	StaticEstimatedCRDCostLimit = 100000000
)

var supportedValidationReason = sets.NewString(
	string(apiextensions.FieldValueRequired),
	string(apiextensions.FieldValueForbidden),
	string(apiextensions.FieldValueInvalid),
	string(apiextensions.FieldValueDuplicate),
)

// checkOptions are the parts of validation.go's validationOptions the CEL
// checks read.
type checkOptions struct {
	preexisting                  preexistingExpressions
	versionsWithUnchangedSchemas sets.Set[string]
	suppressPerExpressionCost    bool
	envSet                       *environment.EnvSet
}

// checkCRD returns the CEL causes of crd (internal version); old is nil on
// create.
func checkCRD(ctx context.Context, crd, old *apiextensions.CustomResourceDefinition) field.ErrorList {
	opts := checkOptions{envSet: environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())}
	if old != nil {
		opts.preexisting = findPreexistingExpressions(&old.Spec)
		opts.versionsWithUnchangedSchemas = findVersionsWithUnchangedSchemas(crd, old)
	}
	var errs field.ErrorList
	spec := field.NewPath("spec")
	for i := range crd.Spec.Versions {
		v := &crd.Spec.Versions[i]
		errs = append(errs, checkValidation(ctx, v.Schema, suppressFor(opts, v.Name), spec.Child("versions").Index(i).Child("schema"))...)
	}
	errs = append(errs, checkValidation(ctx, crd.Spec.Validation, suppressFor(opts, crd.Spec.Version), spec.Child("validation"))...)
	return errs
}

func suppressFor(opts checkOptions, version string) checkOptions {
	if opts.versionsWithUnchangedSchemas.Has(version) {
		opts.suppressPerExpressionCost = true
	}
	return opts
}

// checkValidation is validateCustomResourceDefinitionValidation's CEL part:
// rules are compiled only for a structural schema with valid defaults (the
// core reports the others), and the total cost is checked last.
func checkValidation(ctx context.Context, v *apiextensions.CustomResourceValidation, opts checkOptions, fldPath *field.Path) field.ErrorList {
	if v == nil || v.OpenAPIV3Schema == nil {
		return nil
	}
	schema := v.OpenAPIV3Schema
	var celContext *CELSchemaContext
	if ss, err := structuralschema.NewStructural(schema); err == nil &&
		len(structuralschema.ValidateStructural(fldPath.Child("openAPIV3Schema"), ss)) == 0 {
		if derrs, err := structuraldefaulting.ValidateDefaults(ctx, fldPath.Child("openAPIV3Schema"), ss, true, true); err == nil && len(derrs) == 0 {
			celContext = RootCELContext(schema)
		}
	}
	out := walk(schema, fldPath.Child("openAPIV3Schema"), nil, true, &opts, celContext)
	errs := append(out.schemaErrs, out.celErrs...)
	if celContext != nil && celContext.TotalCost != nil && celContext.TotalCost.Total > StaticEstimatedCRDCostLimit {
		for _, expensive := range celContext.TotalCost.MostExpensive {
			errs = append(errs, field.Forbidden(expensive.Path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
		}
		errs = append(errs, field.Forbidden(fldPath.Child("openAPIV3Schema"), getCostErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", celContext.TotalCost.Total, StaticEstimatedCRDCostLimit)))
	}
	return errs
}

// walkErrs is OpenAPISchemaErrorList: the rules' own schema errors, then
// the CEL errors, of a subtree.
type walkErrs struct{ schemaErrs, celErrs field.ErrorList }

func (w *walkErrs) add(o walkErrs) {
	w.schemaErrs = append(w.schemaErrs, o.schemaErrs...)
	w.celErrs = append(w.celErrs, o.celErrs...)
}

var metaFields = sets.NewString("metadata", "kind", "apiVersion")

// walk is ValidateCustomResourceDefinitionOpenAPISchema's recursion;
// forbidOldSelf is the highest uncorrelatable path above schema (the
// specStandardValidator's). Properties are walked in name order (kube
// ranges over a map).
func walk(schema *apiextensions.JSONSchemaProps, fldPath, forbidOldSelf *field.Path, isRoot bool, opts *checkOptions, celContext *CELSchemaContext) walkErrs {
	var out walkErrs
	if schema == nil {
		return out
	}
	if schema.AdditionalProperties != nil {
		out.add(walk(schema.AdditionalProperties.Schema, fldPath.Child("additionalProperties"), forbidOldSelf, false, opts, celContext.ChildAdditionalPropertiesContext(schema.AdditionalProperties.Schema)))
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range schema.Properties {
			if !yield(k) {
				return
			}
		}
	}) {
		sub := forbidOldSelf
		if sub == nil && !cel.MapIsCorrelatable(schema.XMapType) {
			sub = fldPath
		}
		prop := schema.Properties[name]
		out.add(walk(&prop, fldPath.Child("properties").Key(name), sub, false, opts, celContext.ChildPropertyContext(&prop, name)))
	}
	if schema.Items != nil {
		sub := forbidOldSelf
		if sub == nil && (schema.XListType == nil || *schema.XListType != "map") {
			sub = fldPath
		}
		out.add(walk(schema.Items.Schema, fldPath.Child("items"), sub, false, opts, celContext.ChildItemsContext(schema.Items.Schema)))
		for i := range schema.Items.JSONSchemas {
			item := schema.Items.JSONSchemas[i]
			out.add(walk(&item, fldPath.Child("items").Index(i), sub, false, opts, celContext.ChildItemsContext(&item)))
		}
	}
	if len(schema.XValidations) > 0 {
		out.schemaErrs = append(out.schemaErrs, ruleSchemaErrors(schema, fldPath)...)
		if len(out.schemaErrs) == 0 && celContext != nil {
			out.celErrs = append(out.celErrs, compileRules(schema, fldPath, forbidOldSelf, opts, celContext)...)
		}
	}
	return out
}

// ruleSchemaErrors are the checks of each rule's fields.
func ruleSchemaErrors(schema *apiextensions.JSONSchemaProps, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, rule := range schema.XValidations {
		p := fldPath.Child("x-kubernetes-validations").Index(i)
		trimmedRule := strings.TrimSpace(rule.Rule)
		trimmedMsg := strings.TrimSpace(rule.Message)
		trimmedMsgExpr := strings.TrimSpace(rule.MessageExpression)
		if len(trimmedRule) == 0 {
			errs = append(errs, field.Required(p.Child("rule"), "rule is not specified"))
		} else if len(rule.Message) > 0 && len(trimmedMsg) == 0 {
			errs = append(errs, field.Invalid(p.Child("message"), rule.Message, "must be non-empty if specified"))
		} else if hasNewlines(trimmedMsg) {
			errs = append(errs, field.Invalid(p.Child("message"), rule.Message, "must not contain line breaks"))
		} else if hasNewlines(trimmedRule) && len(trimmedMsg) == 0 {
			errs = append(errs, field.Required(p.Child("message"), "message must be specified if rule contains line breaks"))
		}
		if len(rule.MessageExpression) > 0 && len(trimmedMsgExpr) == 0 {
			errs = append(errs, field.Required(p.Child("messageExpression"), "messageExpression must be non-empty if specified"))
		}
		if rule.Reason != nil && !supportedValidationReason.Has(string(*rule.Reason)) {
			errs = append(errs, field.NotSupported(p.Child("reason"), *rule.Reason, supportedValidationReason.List()))
		}
		trimmedFieldPath := strings.TrimSpace(rule.FieldPath)
		if len(rule.FieldPath) > 0 && len(trimmedFieldPath) == 0 {
			errs = append(errs, field.Invalid(p.Child("fieldPath"), rule.FieldPath, "must be non-empty if specified"))
		}
		if hasNewlines(rule.FieldPath) {
			errs = append(errs, field.Invalid(p.Child("fieldPath"), rule.FieldPath, "must not contain line breaks"))
		}
		if len(rule.FieldPath) > 0 && !pathValid(schema, rule.FieldPath) {
			errs = append(errs, field.Invalid(p.Child("fieldPath"), rule.FieldPath, "must be a valid path"))
		}
	}
	return errs
}

// compileRules compiles a node's rules and checks their costs and use of
// oldSelf.
func compileRules(schema *apiextensions.JSONSchemaProps, fldPath, forbidOldSelf *field.Path, opts *checkOptions, celContext *CELSchemaContext) field.ErrorList {
	var errs field.ErrorList
	xv := fldPath.Child("x-kubernetes-validations")
	typeInfo, err := celContext.TypeInfo()
	if err != nil {
		return field.ErrorList{field.InternalError(xv, fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", err))}
	} else if typeInfo == nil {
		return field.ErrorList{field.InternalError(xv, fmt.Errorf("internal error: failed to retrieve type information for x-kubernetes-validations"))}
	}
	compResults, err := cel.Compile(typeInfo.Schema, typeInfo.DeclType, celconfig.PerCallLimit, opts.envSet, opts.preexisting)
	if err != nil {
		return field.ErrorList{field.InternalError(xv, err)}
	}
	for i, cr := range compResults {
		p := xv.Index(i)
		expressionCost := getExpressionCost(cr, celContext)
		if !opts.suppressPerExpressionCost && expressionCost > StaticEstimatedCostLimit {
			errs = append(errs, field.Forbidden(p.Child("rule"), getCostErrorMessage("estimated rule cost", expressionCost, StaticEstimatedCostLimit)))
		}
		if celContext.TotalCost != nil {
			celContext.TotalCost.ObserveExpressionCost(p.Child("rule"), expressionCost)
		}
		if cr.Error != nil {
			if cr.Error.Type == apiservercel.ErrorTypeRequired {
				errs = append(errs, field.Required(p.Child("rule"), cr.Error.Detail))
			} else {
				errs = append(errs, field.Invalid(p.Child("rule"), schema.XValidations[i], cr.Error.Detail))
			}
		}
		if cr.MessageExpressionError != nil {
			errs = append(errs, field.Invalid(p.Child("messageExpression"), schema.XValidations[i], cr.MessageExpressionError.Detail))
		} else if cr.MessageExpression != nil {
			if !opts.suppressPerExpressionCost && cr.MessageExpressionMaxCost > StaticEstimatedCostLimit {
				errs = append(errs, field.Forbidden(p.Child("messageExpression"), getCostErrorMessage("estimated messageExpression cost", cr.MessageExpressionMaxCost, StaticEstimatedCostLimit)))
			}
			if celContext.TotalCost != nil {
				celContext.TotalCost.ObserveExpressionCost(p.Child("messageExpression"), cr.MessageExpressionMaxCost)
			}
		}
		if cr.UsesOldSelf {
			if forbidOldSelf != nil {
				errs = append(errs, field.Invalid(p.Child("rule"), schema.XValidations[i].Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", forbidOldSelf)))
			}
		} else if schema.XValidations[i].OptionalOldSelf != nil {
			errs = append(errs, field.Invalid(p.Child("optionalOldSelf"), *schema.XValidations[i].OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
	return errs
}

// preexistingExpressions: the expressions of the stored CRD compile in the
// stored-expressions environment (validation.go).
type preexistingExpressions struct {
	rules              sets.Set[string]
	messageExpressions sets.Set[string]
}

func (pe preexistingExpressions) RuleEnv(envSet *environment.EnvSet, expression string) *celgo.Env {
	if pe.rules.Has(expression) {
		return envSet.StoredExpressionsEnv()
	}
	return envSet.NewExpressionsEnv()
}

func (pe preexistingExpressions) MessageExpressionEnv(envSet *environment.EnvSet, expression string) *celgo.Env {
	if pe.messageExpressions.Has(expression) {
		return envSet.StoredExpressionsEnv()
	}
	return envSet.NewExpressionsEnv()
}

func findPreexistingExpressions(spec *apiextensions.CustomResourceDefinitionSpec) preexistingExpressions {
	pe := preexistingExpressions{rules: sets.New[string](), messageExpressions: sets.New[string]()}
	if spec.Validation != nil && spec.Validation.OpenAPIV3Schema != nil {
		findPreexistingInSchema(spec.Validation.OpenAPIV3Schema, pe)
	}
	for _, v := range spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			findPreexistingInSchema(v.Schema.OpenAPIV3Schema, pe)
		}
	}
	return pe
}

// findPreexistingInSchema visits every node as validation.SchemaHas does.
func findPreexistingInSchema(s *apiextensions.JSONSchemaProps, pe preexistingExpressions) {
	if s == nil {
		return
	}
	for _, v := range s.XValidations {
		pe.rules.Insert(v.Rule)
		if len(v.MessageExpression) > 0 {
			pe.messageExpressions.Insert(v.MessageExpression)
		}
	}
	if s.Items != nil {
		findPreexistingInSchema(s.Items.Schema, pe)
		for i := range s.Items.JSONSchemas {
			findPreexistingInSchema(&s.Items.JSONSchemas[i], pe)
		}
	}
	for _, list := range [][]apiextensions.JSONSchemaProps{s.AllOf, s.OneOf, s.AnyOf} {
		for i := range list {
			findPreexistingInSchema(&list[i], pe)
		}
	}
	findPreexistingInSchema(s.Not, pe)
	for _, m := range []map[string]apiextensions.JSONSchemaProps{s.Properties, s.Definitions} {
		for k := range m {
			p := m[k]
			findPreexistingInSchema(&p, pe)
		}
	}
	if s.AdditionalProperties != nil {
		findPreexistingInSchema(s.AdditionalProperties.Schema, pe)
	}
	if s.AdditionalItems != nil {
		findPreexistingInSchema(s.AdditionalItems.Schema, pe)
	}
	for k := range s.Dependencies {
		findPreexistingInSchema(s.Dependencies[k].Schema, pe)
	}
}

func findVersionsWithUnchangedSchemas(obj, old *apiextensions.CustomResourceDefinition) sets.Set[string] {
	out := sets.New[string]()
	for _, version := range obj.Spec.Versions {
		newSchema, err := apiextensions.GetSchemaForVersion(obj, version.Name)
		if err != nil {
			continue
		}
		oldSchema, err := apiextensions.GetSchemaForVersion(old, version.Name)
		if err != nil {
			continue
		}
		if apiequality.Semantic.DeepEqual(newSchema, oldSchema) {
			out.Insert(version.Name)
		}
	}
	return out
}

func pathValid(schema *apiextensions.JSONSchemaProps, path string) bool {
	if ss, err := structuralschema.NewStructural(schema); err == nil {
		_, _, err := cel.ValidFieldPath(path, ss)
		return err == nil
	}
	return true
}

func multiplyWithOverflowGuard(baseCost, cardinality uint64) uint64 {
	if baseCost == 0 {
		return 0
	} else if math.MaxUint/baseCost < cardinality {
		return math.MaxUint
	}
	return baseCost * cardinality
}

func getExpressionCost(cr cel.CompilationResult, c *CELSchemaContext) uint64 {
	if c.MaxCardinality != unbounded {
		return multiplyWithOverflowGuard(cr.MaxCost, *c.MaxCardinality)
	}
	return multiplyWithOverflowGuard(cr.MaxCost, cr.MaxCardinality)
}

func getCostErrorMessage(costName string, expressionCost, costLimit uint64) string {
	exceedFactor := float64(expressionCost) / float64(costLimit)
	var factor string
	if exceedFactor > 100.0 {
		factor = "more than 100x"
	} else if exceedFactor < 1.5 {
		factor = fmt.Sprintf("%fx", exceedFactor)
	} else {
		factor = fmt.Sprintf("%.1fx", exceedFactor)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", costName, factor)
}

var newlineMatcher = regexp.MustCompile(`[\n\r]+`)

func hasNewlines(s string) bool { return newlineMatcher.MatchString(s) }
