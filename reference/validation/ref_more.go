package validation

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	pvcutil "k8s.io/kubernetes/pkg/api/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/apis/apps"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	autoscalingvalidation "k8s.io/kubernetes/pkg/apis/autoscaling/validation"
	"k8s.io/kubernetes/pkg/apis/coordination"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	coordinationvalidation "k8s.io/kubernetes/pkg/apis/coordination/validation"
	"k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/apis/discovery"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	discoveryvalidation "k8s.io/kubernetes/pkg/apis/discovery/validation"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	"k8s.io/kubernetes/pkg/apis/networking"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	networkingvalidation "k8s.io/kubernetes/pkg/apis/networking/validation"
	"k8s.io/kubernetes/pkg/apis/policy"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	policyvalidation "k8s.io/kubernetes/pkg/apis/policy/validation"
	"k8s.io/kubernetes/pkg/apis/rbac"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	rbacvalidation "k8s.io/kubernetes/pkg/apis/rbac/validation"
	"k8s.io/kubernetes/pkg/apis/scheduling"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
	schedulingvalidation "k8s.io/kubernetes/pkg/apis/scheduling/validation"
	"k8s.io/kubernetes/pkg/apis/storage"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
	storagevalidation "k8s.io/kubernetes/pkg/apis/storage/validation"
	volumevalidation "k8s.io/kubernetes/pkg/volume/validation"
)

// refMore runs the strategies of the kinds issue 12 added (networking,
// policy, autoscaling, scheduling, coordination, rbac, storage, the core
// kinds beyond the workloads, discovery, events.k8s.io); ok is false for a
// type it does not know.
func refMore(gvk schema.GroupVersionKind, obj, old runtime.Object) (errs field.ErrorList, ok bool) {
	if errs, ok := refVAP(obj, old); ok {
		return errs, true
	}
	ok = true
	switch o := obj.(type) {
	case *networking.Ingress:
		if old == nil {
			errs = networkingvalidation.ValidateIngressCreate(o)
		} else {
			errs = networkingvalidation.ValidateIngressUpdate(o, old.(*networking.Ingress))
		}
	case *networking.IngressClass:
		if old == nil {
			errs = networkingvalidation.ValidateIngressClass(o)
		} else {
			errs = networkingvalidation.ValidateIngressClassUpdate(o, old.(*networking.IngressClass))
		}
	case *networking.NetworkPolicy:
		if old == nil {
			errs = networkingvalidation.ValidateNetworkPolicy(o, networkingvalidation.ValidationOptionsForNetworking(o, nil))
		} else {
			op := old.(*networking.NetworkPolicy)
			errs = networkingvalidation.ValidateNetworkPolicyUpdate(o, op, networkingvalidation.ValidationOptionsForNetworking(o, op))
		}
	case *policy.PodDisruptionBudget:
		opts := policyvalidation.PodDisruptionBudgetValidationOptions{}
		if old != nil {
			op := old.(*policy.PodDisruptionBudget)
			o.Status = op.Status
			opts.AllowInvalidLabelValueInSelector = op.Spec.Selector != nil &&
				len(metav1validation.ValidateLabelSelector(op.Spec.Selector, metav1validation.LabelSelectorValidationOptions{}, nil)) > 0
		} else {
			o.Status = policy.PodDisruptionBudgetStatus{}
		}
		errs = policyvalidation.ValidatePodDisruptionBudget(o, opts)
	case *autoscaling.HorizontalPodAutoscaler:
		var oh *autoscaling.HorizontalPodAutoscaler
		if old != nil {
			oh = old.(*autoscaling.HorizontalPodAutoscaler)
			o.Status = oh.Status
		} else {
			o.Status = autoscaling.HorizontalPodAutoscalerStatus{}
		}
		opts := hpaOptions(o, oh)
		if old == nil {
			errs = autoscalingvalidation.ValidateHorizontalPodAutoscaler(o, opts)
		} else {
			errs = autoscalingvalidation.ValidateHorizontalPodAutoscalerUpdate(o, oh, opts)
		}
		errs = hpaDeclarative(gvk, o, oh, errs)
	case *scheduling.PriorityClass:
		if old == nil {
			errs = schedulingvalidation.ValidatePriorityClass(o)
		} else {
			errs = schedulingvalidation.ValidatePriorityClassUpdate(o, old.(*scheduling.PriorityClass))
		}
	case *coordination.Lease:
		// PrepareForCreate/Update with CoordinatedLeaderElection off
		if old == nil || old.(*coordination.Lease).Spec.Strategy == nil {
			o.Spec.Strategy = nil
		}
		if old == nil || old.(*coordination.Lease).Spec.PreferredHolder == nil {
			o.Spec.PreferredHolder = nil
		}
		if old == nil {
			errs = coordinationvalidation.ValidateLease(o)
		} else {
			errs = coordinationvalidation.ValidateLeaseUpdate(o, old.(*coordination.Lease))
		}
	case *rbac.Role:
		if old == nil {
			errs = rbacvalidation.ValidateRole(o)
		} else {
			errs = rbacvalidation.ValidateRoleUpdate(o, old.(*rbac.Role))
		}
	case *rbac.ClusterRole:
		opts := rbacvalidation.ClusterRoleValidationOptions{}
		if old == nil {
			errs = rbacvalidation.ValidateClusterRole(o, opts)
		} else {
			or := old.(*rbac.ClusterRole)
			if or.AggregationRule != nil {
				for _, s := range or.AggregationRule.ClusterRoleSelectors {
					if len(metav1validation.ValidateLabelSelector(&s, metav1validation.LabelSelectorValidationOptions{}, nil)) > 0 {
						opts.AllowInvalidLabelValueInSelector = true
					}
				}
			}
			errs = rbacvalidation.ValidateClusterRoleUpdate(o, or, opts)
		}
	case *rbac.RoleBinding:
		if old == nil {
			errs = rbacvalidation.ValidateRoleBinding(o)
		} else {
			errs = rbacvalidation.ValidateRoleBindingUpdate(o, old.(*rbac.RoleBinding))
		}
	case *rbac.ClusterRoleBinding:
		if old == nil {
			errs = rbacvalidation.ValidateClusterRoleBinding(o)
		} else {
			errs = rbacvalidation.ValidateClusterRoleBindingUpdate(o, old.(*rbac.ClusterRoleBinding))
		}
	case *storage.StorageClass:
		errs = storagevalidation.ValidateStorageClass(o)
		if old != nil {
			errs = append(errs, storagevalidation.ValidateStorageClassUpdate(o, old.(*storage.StorageClass))...)
		}
	case *core.PersistentVolumeClaim:
		if old == nil {
			o.Status = core.PersistentVolumeClaimStatus{}
			pvcutil.DropDisabledFields(&o.Spec, nil)
			pvcutil.EnforceDataSourceBackwardsCompatibility(&o.Spec, nil)
			pvcutil.NormalizeDataSources(&o.Spec)
			errs = corevalidation.ValidatePersistentVolumeClaim(o, corevalidation.ValidationOptionsForPersistentVolumeClaim(o, nil))
		} else {
			op := old.(*core.PersistentVolumeClaim)
			o.Status = op.Status
			pvcutil.DropDisabledFields(&o.Spec, &op.Spec)
			pvcutil.EnforceDataSourceBackwardsCompatibility(&o.Spec, &op.Spec)
			pvcutil.NormalizeDataSources(&o.Spec)
			pvcutil.NormalizeDataSources(&op.Spec)
			errs = corevalidation.ValidatePersistentVolumeClaimUpdate(o, op, corevalidation.ValidationOptionsForPersistentVolumeClaim(o, op))
		}
	case *core.PersistentVolume:
		if old == nil {
			o.Status = core.PersistentVolumeStatus{Phase: core.VolumePending}
			errs = corevalidation.ValidatePersistentVolume(o, corevalidation.ValidationOptionsForPersistentVolume(o, nil))
			errs = append(errs, volumevalidation.ValidatePersistentVolume(o)...)
		} else {
			op := old.(*core.PersistentVolume)
			o.Status = op.Status
			opts := corevalidation.ValidationOptionsForPersistentVolume(o, op)
			errs = corevalidation.ValidatePersistentVolume(o, opts)
			errs = append(errs, volumevalidation.ValidatePersistentVolume(o)...)
			errs = append(errs, corevalidation.ValidatePersistentVolumeUpdate(o, op, opts)...)
		}
	case *core.LimitRange:
		errs = corevalidation.ValidateLimitRange(o)
	case *core.ResourceQuota:
		if old == nil {
			o.Status = core.ResourceQuotaStatus{}
			errs = corevalidation.ValidateResourceQuota(o)
		} else {
			op := old.(*core.ResourceQuota)
			o.Status = op.Status
			errs = corevalidation.ValidateResourceQuotaUpdate(o, op)
		}
	case *core.Endpoints:
		if old == nil {
			errs = corevalidation.ValidateEndpointsCreate(o)
		} else {
			errs = corevalidation.ValidateEndpointsUpdate(o, old.(*core.Endpoints))
		}
	case *discovery.EndpointSlice:
		var oe *discovery.EndpointSlice
		if old != nil {
			oe = old.(*discovery.EndpointSlice)
		}
		dropTopologyOnV1(oe, o)
		if old == nil {
			errs = discoveryvalidation.ValidateEndpointSliceCreate(o)
		} else {
			errs = discoveryvalidation.ValidateEndpointSliceUpdate(o, old.(*discovery.EndpointSlice))
		}
	case *apps.ControllerRevision:
		if old == nil {
			errs = appsvalidation.ValidateControllerRevisionCreate(o)
		} else {
			errs = appsvalidation.ValidateControllerRevisionUpdate(o, old.(*apps.ControllerRevision))
		}
	case *core.Node:
		if old == nil {
			// TaintNodesByCondition (mutating admission, before the
			// strategy), then PrepareForCreate's dropDisabledFields
			addNotReadyTaint(o)
			o.Spec.ConfigSource, o.Status.Config = nil, nil
			errs = corevalidation.ValidateNode(o)
		} else {
			on := old.(*core.Node)
			o.Status = on.Status
			if on.Spec.ConfigSource == nil {
				o.Spec.ConfigSource = nil
			}
			errs = corevalidation.ValidateNode(o)
			errs = append(errs, corevalidation.ValidateNodeUpdate(o, on)...)
		}
	case *core.Event:
		gv := gvk.GroupVersion()
		if old == nil {
			errs = corevalidation.ValidateEventCreate(o, gv)
		} else {
			errs = corevalidation.ValidateEventUpdate(o, old.(*core.Event), gv)
		}
	default:
		ok = false
	}
	return errs, ok
}

// hpaOptions is the autoscaler strategy's validationOptionsForHorizontalPodAutoscaler
// (unexported; feature gates at their v1.37.2 defaults: HPAScaleToZero on,
// beta since v1.37).
func hpaOptions(n, o *autoscaling.HorizontalPodAutoscaler) autoscalingvalidation.HorizontalPodAutoscalerSpecValidationOptions {
	opts := autoscalingvalidation.HorizontalPodAutoscalerSpecValidationOptions{
		MinReplicasLowerBound:           0,
		ScaleTargetRefValidationOptions: autoscalingvalidation.CrossVersionObjectReferenceValidationOptions{RequiredCoveredByDeclarative: true},
		ObjectMetricsValidationOptions:  autoscalingvalidation.CrossVersionObjectReferenceValidationOptions{AllowEmptyAPIGroup: true},
	}
	if o != nil && o.Spec.MinReplicas != nil && *o.Spec.MinReplicas == 0 {
		opts.MinReplicasLowerBound = 0
	}
	switch {
	case o != nil && o.Spec.ScaleTargetRef.APIVersion == n.Spec.ScaleTargetRef.APIVersion && o.Spec.ScaleTargetRef.Kind == n.Spec.ScaleTargetRef.Kind:
		opts.ScaleTargetRefValidationOptions.AllowInvalidAPIVersion = true
	case n.Spec.ScaleTargetRef.Kind == "ReplicationController":
		opts.ScaleTargetRefValidationOptions.AllowEmptyAPIGroup = true
	}
	if o != nil {
		for _, m := range o.Spec.Metrics {
			if m.Type == autoscaling.ObjectMetricSourceType && m.Object != nil {
				if autoscalingvalidation.ValidateAPIVersion(m.Object.DescribedObject, opts.ObjectMetricsValidationOptions) != nil {
					opts.ObjectMetricsValidationOptions.AllowInvalidAPIVersion = true
					break
				}
			}
		}
	}
	return opts
}

// dropTopologyOnV1 is the endpointslice strategy's (unexported) for a v1
// request: deprecatedTopology is dropped unless an update leaves the
// endpoints as they were; an endpoint without nodeName takes the hostname
// label's node if the old slice named it.
func dropTopologyOnV1(oldEPS, newEPS *discovery.EndpointSlice) {
	if oldEPS != nil && apiequality.Semantic.DeepEqual(oldEPS.Endpoints, newEPS.Endpoints) {
		return
	}
	prev := map[string]bool{}
	if oldEPS != nil {
		for _, ep := range oldEPS.Endpoints {
			if n := ep.DeprecatedTopology["kubernetes.io/hostname"]; n != "" {
				prev[n] = true
			}
		}
	}
	for i := range newEPS.Endpoints {
		ep := &newEPS.Endpoints[i]
		n, ok := ep.DeprecatedTopology["kubernetes.io/hostname"]
		if ep.NodeName == nil && ok && prev[n] && len(corevalidation.ValidateNodeName(n, false)) == 0 {
			ep.NodeName = &n
		}
		ep.DeprecatedTopology = nil
	}
}

// addNotReadyTaint is the TaintNodesByCondition admission plugin's.
func addNotReadyTaint(n *core.Node) {
	for _, t := range n.Spec.Taints {
		if t.Key == "node.kubernetes.io/not-ready" && t.Effect == core.TaintEffectNoSchedule {
			return
		}
	}
	n.Spec.Taints = append(n.Spec.Taints, core.Taint{Key: "node.kubernetes.io/not-ready", Effect: core.TaintEffectNoSchedule})
}
