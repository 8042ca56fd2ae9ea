// Package validation compares the built-in kinds' validation in
// kubesandbox (core/builtin/<group>, reached through the API server) with
// kube-apiserver's own code, k8s.io/kubernetes v1.37.2: the same JSON is
// decoded, defaulted and converted as the real server does, then checked by
// the functions its registry strategies call. The outcome compared is the
// list of causes (type, field, message) in order.
package validation

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	"k8s.io/kubernetes/pkg/apis/batch"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	batchvalidation "k8s.io/kubernetes/pkg/apis/batch/validation"
	"k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
)

var _ = corev1.Pod{}

// RefCauses decodes data (a JSON object of the given group/version/kind)
// as kube-apiserver does (defaulting, conversion to the internal type),
// runs the strategy's create checks (old == nil) or update checks, and
// returns the causes as "type|field|message".
func RefCauses(gvk schema.GroupVersionKind, data, oldData []byte) (causes []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	obj, err := decode(gvk, data, "11111111-2222-3333-4444-555555555555")
	if err != nil {
		return nil, err
	}
	var old runtime.Object
	if oldData != nil {
		if old, err = decode(gvk, oldData, "11111111-2222-3333-4444-555555555555"); err != nil {
			return nil, err
		}
	}
	var errs field.ErrorList
	switch o := obj.(type) {
	case *core.Pod:
		if old == nil {
			errs = commonCreate(o, func() field.ErrorList {
				opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&o.Spec, nil, &o.ObjectMeta, nil)
				opts.ResourceIsPod = true
				return corevalidation.ValidatePodCreate(o, opts)
			})
		} else {
			op := old.(*core.Pod)
			o.Status = op.Status
			errs = commonUpdate(o, op, func() field.ErrorList {
				opts := podutil.GetValidationOptionsFromPodSpecAndMeta(&o.Spec, &op.Spec, &o.ObjectMeta, &op.ObjectMeta)
				opts.ResourceIsPod = true
				return corevalidation.ValidatePodUpdate(o, op, opts)
			})
		}
	case *core.PodTemplate:
		opts := podutil.GetValidationOptionsFromPodTemplate(&o.Template, nil)
		if old == nil {
			errs = commonCreate(o, func() field.ErrorList { return corevalidation.ValidatePodTemplate(o, opts) })
		} else {
			errs = commonUpdate(o, old, func() field.ErrorList {
				return corevalidation.ValidatePodTemplateUpdate(o, old.(*core.PodTemplate), opts)
			})
		}
	case *apps.Deployment:
		opts := podutil.GetValidationOptionsFromPodTemplate(&o.Spec.Template, nil)
		if old == nil {
			errs = commonCreate(o, func() field.ErrorList { return appsvalidation.ValidateDeployment(o, opts) })
		} else {
			errs = commonUpdate(o, old, func() field.ErrorList {
				return appsvalidation.ValidateDeploymentUpdate(o, old.(*apps.Deployment), opts)
			})
		}
	case *apps.ReplicaSet:
		opts := podutil.GetValidationOptionsFromPodTemplate(&o.Spec.Template, nil)
		if old == nil {
			errs = commonCreate(o, func() field.ErrorList { return appsvalidation.ValidateReplicaSet(o, opts) })
		} else {
			errs = commonUpdate(o, old, func() field.ErrorList {
				return appsvalidation.ValidateReplicaSetUpdate(o, old.(*apps.ReplicaSet), opts)
			})
		}
	case *apps.DaemonSet:
		opts := podutil.GetValidationOptionsFromPodTemplate(&o.Spec.Template, nil)
		if old == nil {
			errs = commonCreate(o, func() field.ErrorList { return appsvalidation.ValidateDaemonSet(o, opts) })
		} else {
			// the strategy's PrepareForUpdate: a new template is a new generation
			od := old.(*apps.DaemonSet)
			o.Spec.TemplateGeneration = od.Spec.TemplateGeneration
			if !apiequality.Semantic.DeepEqual(o.Spec.Template, od.Spec.Template) {
				o.Spec.TemplateGeneration++
			}
			errs = commonUpdate(o, old, func() field.ErrorList { return appsvalidation.ValidateDaemonSetUpdate(o, old.(*apps.DaemonSet), opts) })
		}
	case *apps.StatefulSet:
		opts := podutil.GetValidationOptionsFromPodTemplate(&o.Spec.Template, nil)
		if old == nil {
			errs = commonCreate(o, func() field.ErrorList {
				return appsvalidation.ValidateStatefulSet(o, appsvalidation.StatefulSetValidationOptions{}, opts)
			})
		} else {
			errs = commonUpdate(o, old, func() field.ErrorList {
				return appsvalidation.ValidateStatefulSetUpdate(o, old.(*apps.StatefulSet), appsvalidation.StatefulSetValidationOptions{}, opts)
			})
		}
	case *batch.Job:
		opts := batchvalidation.JobValidationOptions{
			PodValidationOptions:  podutil.GetValidationOptionsFromPodTemplate(&o.Spec.Template, nil),
			RequirePrefixedLabels: true,
		}
		if old == nil {
			generateJobSelector(o)
			errs = commonCreate(o, func() field.ErrorList { return batchvalidation.ValidateJobCreate(o, opts) })
		} else {
			oj := old.(*batch.Job)
			_, hadName := oj.Spec.Template.Labels[batch.JobNameLabel]
			_, hadUID := oj.Spec.Template.Labels[batch.ControllerUidLabel]
			opts.RequirePrefixedLabels = hadName && hadUID
			errs = commonUpdate(o, old, func() field.ErrorList { return batchvalidation.ValidateJobUpdate(o, oj, opts) })
		}
	case *batch.CronJob:
		opts := podutil.GetValidationOptionsFromPodTemplate(&o.Spec.JobTemplate.Spec.Template, nil)
		if old == nil {
			errs = commonCreate(o, func() field.ErrorList { return batchvalidation.ValidateCronJobCreate(o, opts) })
		} else {
			errs = commonUpdate(o, old, func() field.ErrorList { return batchvalidation.ValidateCronJobUpdate(o, old.(*batch.CronJob), opts) })
		}
	case *core.Service:
		if old == nil {
			errs = commonCreate(o, func() field.ErrorList { return corevalidation.ValidateServiceCreate(o) })
		} else {
			errs = commonUpdate(o, old, func() field.ErrorList { return corevalidation.ValidateServiceUpdate(o, old.(*core.Service)) })
		}
	case *core.ConfigMap:
		if old == nil {
			errs = commonCreate(o, func() field.ErrorList { return corevalidation.ValidateConfigMap(o) })
		} else {
			errs = commonUpdate(o, old, func() field.ErrorList { return corevalidation.ValidateConfigMapUpdate(o, old.(*core.ConfigMap)) })
		}
	case *core.ReplicationController:
		errs = refRC(o, old)
	case *core.Secret:
		if old == nil {
			errs = commonCreate(o, func() field.ErrorList { return corevalidation.ValidateSecret(o) })
		} else {
			errs = commonUpdate(o, old, func() field.ErrorList { return corevalidation.ValidateSecretUpdate(o, old.(*core.Secret)) })
		}
	default:
		var ok bool
		more := func() field.ErrorList {
			var e field.ErrorList
			e, ok = refMore(gvk, obj, old)
			return e
		}
		if old == nil {
			errs = commonCreate(obj, more)
		} else {
			errs = commonUpdate(obj, old, more)
		}
		if !ok {
			return nil, fmt.Errorf("no reference for %T", obj)
		}
	}
	for _, e := range errs {
		causes = append(causes, string(e.Type)+"|"+e.Field+"|"+e.ErrorBody())
	}
	return causes, nil
}

// decode is what the handler does with a body: decode into the versioned
// type, default, convert to the internal type. uid stands in for the
// system fields the server sets.
func decode(gvk schema.GroupVersionKind, data []byte, uid string) (runtime.Object, error) {
	internal := schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal}
	obj, _, err := legacyscheme.Codecs.UniversalDecoder(internal).Decode(data, &gvk, nil)
	if err != nil {
		return nil, err
	}
	if m, ok := obj.(interface{ SetUID(types.UID) }); ok {
		m.SetUID(types.UID(uid))
	}
	return obj, nil
}

// commonCreate: strategy.Validate, and only when it passes the generic
// ObjectMeta check (rest.BeforeCreate); then the merge with declarative
// validation de-duplicates them (see dedup).
func commonCreate(o runtime.Object, validate func() field.ErrorList) field.ErrorList {
	errs := validate()
	if len(errs) == 0 {
		om, _ := meta.Accessor(o)
		errs = apimachineryvalidation.ValidateObjectMetaAccessor(om, om.GetNamespace() != "", path.ValidatePathSegmentName, field.NewPath("metadata"))
	}
	return dedup(errs)
}

// commonUpdate: the generic ObjectMeta and ObjectMetaUpdate checks
// (rest.BeforeUpdate's validateCommonFields), then strategy.ValidateUpdate,
// de-duplicated (see dedup).
func commonUpdate(o, old runtime.Object, validate func() field.ErrorList) field.ErrorList {
	om, _ := meta.Accessor(o)
	oom, _ := meta.Accessor(old)
	errs := apimachineryvalidation.ValidateObjectMetaAccessor(om, om.GetNamespace() != "", path.ValidatePathSegmentName, field.NewPath("metadata"))
	errs = append(errs, apimachineryvalidation.ValidateObjectMetaAccessorUpdate(om, oom, field.NewPath("metadata"))...)
	return dedup(append(errs, validate()...))
}

// dedup is what rest.ValidateCreate / ValidateUpdate's declarative
// validation step does to the handwritten errors of every built-in
// strategy (they all embed rest.DeclarativeValidation): its
// FilterCoveredHandwrittenErrors passes them through ErrorList.Filter,
// whose ToAggregate drops repeated errors. So a bad label key in an
// update is one cause, not one per ObjectMeta check.
func dedup(errs field.ErrorList) field.ErrorList {
	if len(errs) == 0 {
		return errs
	}
	return errs.Filter()
}

// generateJobSelector is the job strategy's generateSelectorIfNeeded
// (pkg/registry/batch/job, whose package would pull in the storage layer).
func generateJobSelector(obj *batch.Job) {
	if obj.Spec.ManualSelector != nil && *obj.Spec.ManualSelector {
		return
	}
	if obj.Spec.Template.Labels == nil {
		obj.Spec.Template.Labels = map[string]string{}
	}
	for _, k := range []string{batch.LegacyJobNameLabel, batch.JobNameLabel} {
		if _, ok := obj.Spec.Template.Labels[k]; !ok {
			obj.Spec.Template.Labels[k] = obj.Name
		}
	}
	for _, k := range []string{batch.LegacyControllerUidLabel, batch.ControllerUidLabel} {
		if _, ok := obj.Spec.Template.Labels[k]; !ok {
			obj.Spec.Template.Labels[k] = string(obj.UID)
		}
	}
	if obj.Spec.Selector == nil {
		obj.Spec.Selector = &metav1.LabelSelector{}
	}
	if obj.Spec.Selector.MatchLabels == nil {
		obj.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := obj.Spec.Selector.MatchLabels[batch.ControllerUidLabel]; !ok {
		obj.Spec.Selector.MatchLabels[batch.ControllerUidLabel] = string(obj.UID)
	}
}
