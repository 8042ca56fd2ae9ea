package policy

import (
	"sync"

	v1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/cel/environment"
)

// compilePolicy is k8s.io/apiserver/pkg/admission/plugin/policy/validating
// plugin.go's compilePolicy (unexported there), line for line.
func compilePolicy(policy *v1.ValidatingAdmissionPolicy) validating.Validator {
	hasParam := policy.Spec.ParamKind != nil
	optionalVars := cel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: true}
	expressionOptionalVars := cel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: false}
	failurePolicy := policy.Spec.FailurePolicy
	var matcher matchconditions.Matcher
	matchConditions := policy.Spec.MatchConditions
	filterCompiler, err := cel.NewCompositedCompiler(compositionEnv())
	if err != nil {
		return validating.NewValidator(nil, nil, nil, nil, failurePolicy, err)
	}
	filterCompiler.CompileAndStoreVariables(variables(policy.Spec.Variables), optionalVars, environment.StoredExpressions)
	if len(matchConditions) > 0 {
		acc := make([]cel.ExpressionAccessor, len(matchConditions))
		for i := range matchConditions {
			acc[i] = (*matchconditions.MatchCondition)(&matchConditions[i])
		}
		matcher = matchconditions.NewMatcher(filterCompiler.CompileCondition(acc, optionalVars, environment.StoredExpressions), failurePolicy, "policy", "validate", policy.Name)
	}
	return validating.NewValidator(
		filterCompiler.CompileCondition(validations(policy.Spec.Validations), optionalVars, environment.StoredExpressions),
		matcher,
		filterCompiler.CompileCondition(auditAnnotations(policy.Spec.AuditAnnotations), optionalVars, environment.StoredExpressions),
		filterCompiler.CompileCondition(messageExpressions(policy.Spec.Validations), expressionOptionalVars, environment.StoredExpressions),
		failurePolicy,
		nil,
	)
}

var (
	compositionOnce sync.Once
	compositionTmpl *environment.EnvSet
)

// compositionEnv is getCompositionEnvTemplateWithStrictCost.
func compositionEnv() *environment.EnvSet {
	compositionOnce.Do(func() {
		compositionTmpl = environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
	})
	return compositionTmpl
}

func validations(in []v1.Validation) []cel.ExpressionAccessor {
	out := make([]cel.ExpressionAccessor, len(in))
	for i, v := range in {
		out[i] = &validating.ValidationCondition{Expression: v.Expression, Message: v.Message, Reason: v.Reason}
	}
	return out
}

func messageExpressions(in []v1.Validation) []cel.ExpressionAccessor {
	out := make([]cel.ExpressionAccessor, len(in))
	for i, v := range in {
		if v.MessageExpression != "" {
			out[i] = &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}
		}
	}
	return out
}

func auditAnnotations(in []v1.AuditAnnotation) []cel.ExpressionAccessor {
	out := make([]cel.ExpressionAccessor, len(in))
	for i, a := range in {
		out[i] = &validating.AuditAnnotationCondition{Key: a.Key, ValueExpression: a.ValueExpression}
	}
	return out
}

func variables(in []v1.Variable) []cel.NamedExpressionAccessor {
	out := make([]cel.NamedExpressionAccessor, len(in))
	for i, v := range in {
		out[i] = &validating.Variable{Name: v.Name, Expression: v.Expression}
	}
	return out
}

// sync1 is sync.OnceValue.
func sync1[T any](f func() T) func() T { return sync.OnceValue(f) }
