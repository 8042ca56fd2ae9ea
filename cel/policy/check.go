package policy

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	v1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/kubesandbox/kubesandbox/core/cel"
)

// CheckPolicy is the CEL part of k8s.io/kubernetes
// pkg/apis/admissionregistration/validation's
// ValidateValidatingAdmissionPolicy(Update): every expression of a policy
// (matchConditions, variables, validations and their messageExpression,
// auditAnnotations' valueExpression) compiled as kube-apiserver compiles
// it, an expression the stored policy already had in the stored-expression
// environment. Bindings have no expressions.
//
//	validations: [{expression: "object.spec.replicas <"}]
//	→ spec.validations[0].expression: Invalid value: "object.spec.replicas <": compilation failed: ERROR: <input>:1:23: Syntax error: ...
func (e *Engine) CheckPolicy(req cel.CheckPolicyRequest) ([]cel.Cause, error) {
	var kind struct{ Kind string }
	if err := json.Unmarshal(req.Object, &kind); err != nil {
		return nil, err
	}
	if kind.Kind != "ValidatingAdmissionPolicy" {
		return nil, nil
	}
	p := &v1.ValidatingAdmissionPolicy{}
	if err := json.Unmarshal(req.Object, p); err != nil {
		return nil, err
	}
	var old *v1.ValidatingAdmissionPolicy
	if len(req.Old) > 0 {
		old = &v1.ValidatingAdmissionPolicy{}
		if err := json.Unmarshal(req.Old, old); err != nil {
			return nil, err
		}
	}
	return causes(checkSpec(p, old)), nil
}

// preexisting are the expressions of the stored policy
// (findValidatingPolicyPreexistingExpressions).
type preexisting struct{ match, validation, message, audit map[string]bool }

func findPreexisting(old *v1.ValidatingAdmissionPolicy) preexisting {
	pe := preexisting{map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}}
	if old == nil {
		return pe
	}
	for _, mc := range old.Spec.MatchConditions {
		pe.match[mc.Expression] = true
	}
	for _, v := range old.Spec.Validations {
		pe.validation[v.Expression] = true
		if v.MessageExpression != "" {
			pe.message[v.MessageExpression] = true
		}
	}
	for _, a := range old.Spec.AuditAnnotations {
		pe.audit[a.ValueExpression] = true
	}
	return pe
}

func envType(stored bool) environment.Type {
	if stored {
		return environment.StoredExpressions
	}
	return environment.NewExpressions
}

func checkSpec(p, old *v1.ValidatingAdmissionPolicy) field.ErrorList {
	var errs field.ErrorList
	spec := &p.Spec
	fld := field.NewPath("spec")
	pe := findPreexisting(old)
	hasParams := spec.ParamKind != nil
	var compiler plugincel.Compiler
	getCompiler := func() plugincel.Compiler {
		if compiler == nil {
			compiler = createCompiler(len(spec.Variables) > 0)
		}
		return compiler
	}
	// ignoreValidatingAdmissionPolicyMatchConditions
	ignoreMatch := old != nil && reflect.DeepEqual(spec.MatchConditions, old.Spec.MatchConditions)
	if !ignoreMatch {
		for i, mc := range spec.MatchConditions {
			expr := strings.TrimSpace(mc.Expression)
			if expr == "" {
				continue
			}
			errs = append(errs, compileCondition(statelessCompiler(), &matchconditions.MatchCondition{Expression: expr},
				plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}, envType(pe.match[expr]),
				fld.Child("matchConditions").Index(i).Child("expression"))...)
		}
	}
	for i, v := range spec.Variables {
		if strings.TrimSpace(v.Expression) == "" {
			continue
		}
		vp := fld.Child("variables").Index(i).Child("expression")
		cc, ok := getCompiler().(*plugincel.CompositedCompiler)
		if !ok {
			errs = append(errs, field.InternalError(fld.Child("variables").Index(i), fmt.Errorf("variable composition is not allowed")))
			continue
		}
		variable := &validating.Variable{Name: v.Name, Expression: v.Expression}
		res := cc.CompileAndStoreVariable(variable, plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}, envType(pe.validation[v.Expression]))
		if res.Error != nil {
			errs = append(errs, celError(vp, variable, res.Error))
		}
	}
	if len(spec.Validations) == 0 && len(spec.AuditAnnotations) == 0 {
		return errs
	}
	for i, v := range spec.Validations {
		vp := fld.Child("validations").Index(i)
		if strings.TrimSpace(v.Expression) != "" {
			errs = append(errs, compileCondition(getCompiler(), &validating.ValidationCondition{Expression: v.Expression},
				plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}, envType(pe.validation[v.Expression]), vp.Child("expression"))...)
		}
		if strings.TrimSpace(v.MessageExpression) != "" {
			errs = append(errs, compileCondition(getCompiler(), &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression},
				plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: false}, envType(pe.message[v.MessageExpression]), vp.Child("messageExpression"))...)
		}
	}
	for i, a := range spec.AuditAnnotations {
		ve := strings.TrimSpace(a.ValueExpression)
		if ve == "" || len(ve) > 5*1024 {
			continue
		}
		ap := fld.Child("auditAnnotations").Index(i).Child("valueExpression")
		res := getCompiler().CompileCELExpression(&validating.AuditAnnotationCondition{ValueExpression: ve},
			plugincel.OptionalVariableDeclarations{HasParams: hasParams, HasAuthorizer: true}, envType(pe.audit[a.ValueExpression]))
		if res.Error != nil {
			switch res.Error.Type {
			case apiservercel.ErrorTypeRequired:
				errs = append(errs, field.Required(ap, res.Error.Detail))
			case apiservercel.ErrorTypeInvalid:
				errs = append(errs, field.Invalid(ap, a.ValueExpression, res.Error.Detail))
			default:
				errs = append(errs, field.InternalError(ap, res.Error))
			}
		}
	}
	return errs
}

func compileCondition(c plugincel.Compiler, expr plugincel.ExpressionAccessor, vars plugincel.OptionalVariableDeclarations, t environment.Type, p *field.Path) field.ErrorList {
	if res := c.CompileCELExpression(expr, vars, t); res.Error != nil {
		return field.ErrorList{celError(p, expr, res.Error)}
	}
	return nil
}

// celError is convertCELErrorToValidationError.
func celError(p *field.Path, expr plugincel.ExpressionAccessor, err error) *field.Error {
	if ce, ok := err.(*apiservercel.Error); ok {
		switch ce.Type {
		case apiservercel.ErrorTypeRequired:
			return field.Required(p, ce.Detail)
		case apiservercel.ErrorTypeInvalid:
			return field.Invalid(p, expr.GetExpression(), ce.Detail)
		case apiservercel.ErrorTypeInternal:
			return field.InternalError(p, ce)
		}
	}
	return field.InternalError(p, fmt.Errorf("unsupported error type: %w", err))
}

var stateless = sync1(func() plugincel.Compiler {
	return plugincel.NewCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
})

func statelessCompiler() plugincel.Compiler { return stateless() }

// createCompiler is the validation package's createCompiler.
func createCompiler(composition bool) plugincel.Compiler {
	if !composition {
		return statelessCompiler()
	}
	c, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		return plugincel.NewCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	}
	return c
}

// causes carries field errors across the JSON boundary.
func causes(errs field.ErrorList) []cel.Cause {
	var out []cel.Cause
	for _, e := range errs {
		c := cel.Cause{Type: string(e.Type), Field: e.Field, Detail: e.Detail}
		if e.Type != field.ErrorTypeRequired && e.Type != field.ErrorTypeInternal && e.Type != field.ErrorTypeForbidden {
			c.BadValue = e.BadValue
		}
		out = append(out, c)
	}
	return out
}
