package validation

import (
	"context"

	"k8s.io/apimachinery/pkg/api/operation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	"k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
)

// refRC runs what the ReplicationController strategy (whose
// rest.DeclarativeValidation uses legacyscheme.Scheme) runs:
// PrepareForUpdate (the stored status is kept), ValidateReplicationController
// (Update), then the declarative validation, which replaces the handwritten
// causes it covers (metadata.name, spec.replicas, spec.minReadySeconds)
// with its own, appended last.
func refRC(o *core.ReplicationController, old runtime.Object) field.ErrorList {
	ctx := genericapirequest.WithRequestInfo(context.Background(), &genericapirequest.RequestInfo{
		IsResourceRequest: true, APIVersion: "v1", Resource: "replicationcontrollers"})
	if old == nil {
		return commonCreate(o, func() field.ErrorList {
			errs := corevalidation.ValidateReplicationController(o, podutil.GetValidationOptionsFromPodTemplate(o.Spec.Template, nil))
			return rest.ValidateDeclarativelyWithMigrationChecks(ctx, legacyscheme.Scheme, o, nil, errs, operation.Create, rest.DeclarativeValidationConfig{})
		})
	}
	oc := old.(*core.ReplicationController)
	o.Status = oc.Status
	return commonUpdate(o, old, func() field.ErrorList {
		errs := corevalidation.ValidateReplicationControllerUpdate(o, oc, podutil.GetValidationOptionsFromPodTemplate(o.Spec.Template, oc.Spec.Template))
		return rest.ValidateDeclarativelyWithMigrationChecks(ctx, legacyscheme.Scheme, o, old, errs, operation.Update, rest.DeclarativeValidationConfig{})
	})
}

// hpaDeclarative is the declarative half of the autoscaler strategy's
// validation (rest.DeclarativeValidation with its
// DeclarativeValidationConfig: HPAScaleToZero on): the covered
// minReplicas/maxReplicas causes become the declarative ones, last.
func hpaDeclarative(gvk schema.GroupVersionKind, o, old *autoscaling.HorizontalPodAutoscaler, errs field.ErrorList) field.ErrorList {
	ctx := genericapirequest.WithRequestInfo(context.Background(), &genericapirequest.RequestInfo{
		IsResourceRequest: true, APIGroup: gvk.Group, APIVersion: gvk.Version, Resource: "horizontalpodautoscalers"})
	cfg := rest.DeclarativeValidationConfig{Options: map[string]bool{"HPAScaleToZero": true}}
	if old == nil {
		return rest.ValidateDeclarativelyWithMigrationChecks(ctx, legacyscheme.Scheme, o, nil, errs, operation.Create, cfg)
	}
	return rest.ValidateDeclarativelyWithMigrationChecks(ctx, legacyscheme.Scheme, o, old, errs, operation.Update, cfg)
}
