package validation

import (
	"encoding/json"
	"fmt"
	"testing"

	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	autoscalingvalidation "k8s.io/kubernetes/pkg/apis/autoscaling/validation"
	"k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/apis/networking"
	networkingvalidation "k8s.io/kubernetes/pkg/apis/networking/validation"
	"k8s.io/kubernetes/pkg/apis/policy"
	policyvalidation "k8s.io/kubernetes/pkg/apis/policy/validation"
)

// statusMuts are the status mutations of the kinds whose status writes
// have checks of their own (the status strategies' ValidateUpdate).
var statusMuts = map[string][]Mut{
	"Ingress": {{Path: "status.loadBalancer.ingress", Val: l{m{"ip": "10.0.0.1", "hostname": "lb.example.com"}}},
		{Path: "status.loadBalancer.ingress", Val: l{m{"ip": "010.0.0.1"}, m{"ip": "::ffff:10.0.0.1"}, m{"ip": "nope"}}},
		{Path: "status.loadBalancer.ingress", Val: l{m{"hostname": "10.0.0.2"}, m{"hostname": "Bad_Host"}, m{"hostname": "a.b", "ports": l{m{"port": 80, "protocol": "TCP"}}}}},
		{Path: "status.loadBalancer.ingress", Val: l{}}},
	"HorizontalPodAutoscaler": {{Path: "status.currentReplicas", Val: -1}, {Path: "status.desiredReplicas", Val: -2},
		{Path: "status.currentReplicas", Val: 3}, {Path: "status.desiredReplicas", Val: 4},
		{Path: "status.conditions", Val: l{m{"type": "AbleToScale", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}}}},
	"PodDisruptionBudget": {{Path: "status.disruptionsAllowed", Val: -1}, {Path: "status.currentHealthy", Val: -2},
		{Path: "status.desiredHealthy", Val: -3}, {Path: "status.expectedPods", Val: -4}, {Path: "status.expectedPods", Val: 2},
		{Path: "status.conditions", Val: l{m{"type": "DisruptionAllowed", "status": "True", "reason": "SufficientPods", "lastTransitionTime": "2026-01-01T00:00:00Z", "message": "ok"}}},
		{Path: "status.conditions", Val: l{m{"type": "Bad Type", "status": "Maybe", "reason": "bad reason!", "observedGeneration": -1}, m{"type": "Bad Type", "status": "True"}}},
		{Path: "status.conditions", Val: l{m{"type": "", "status": "", "reason": "Ends,"}}}},
	"PersistentVolumeClaim": {{Path: "status.phase", Val: "Bound"}, {Path: "status.capacity", Val: m{"storage": "1Gi"}},
		{Path: "status.capacity", Val: m{"storage": "-1Gi", "cpu": "-500m"}}, {Path: "status.allocatedResources", Val: m{"storage": "2Gi"}},
		{Path: "status.allocatedResources", Val: m{"cpu": "1", "example.com/x": "-1", "Bad Key": "1", "kubernetes.io/storage": "1"}},
		{Path: "status.allocatedResourceStatuses", Val: m{"storage": "ControllerResizeInProgress"}},
		{Path: "status.allocatedResourceStatuses", Val: m{"storage": "Stuck", "memory": "NodeResizePending"}},
		{Path: "status.healthStatus", Val: m{"healthConditions": l{m{"reason": "bad reason!"}, m{"reason": "Fine"}}}}},
	"ResourceQuota": {{Path: "status.hard", Val: m{"pods": "10", "requests.cpu": "4"}}, {Path: "status.used.pods", Val: "3"},
		{Path: "status.used", Val: m{"pods": "-1", "requests.cpu": "-500m", "gpus": "1", "Bad Name": "1"}},
		{Path: "status.hard", Val: m{"pods": "1500m", "example.com/gpu": "0.5", "count/deployments.apps": "2"}},
		{Path: "status.used.requests.memory", Val: "1Gi"}, {Path: "status.hard", Del: true}},
}

// refStatus runs a status strategy's checks: the generic metadata checks of
// rest.BeforeUpdate, then ValidateXxxStatusUpdate on the object whose spec
// the status strategy's PrepareForUpdate reset to the old one.
func refStatus(gvk schema.GroupVersionKind, data, oldData []byte) (causes []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	obj, err := decode(gvk, data, "11111111-2222-3333-4444-555555555555")
	if err != nil {
		return nil, err
	}
	old, err := decode(gvk, oldData, "11111111-2222-3333-4444-555555555555")
	if err != nil {
		return nil, err
	}
	var v func() field.ErrorList
	switch o := obj.(type) {
	case *networking.Ingress:
		op := old.(*networking.Ingress)
		o.Spec = op.Spec
		v = func() field.ErrorList { return networkingvalidation.ValidateIngressStatusUpdate(o, op) }
	case *autoscaling.HorizontalPodAutoscaler:
		op := old.(*autoscaling.HorizontalPodAutoscaler)
		o.Spec = op.Spec
		v = func() field.ErrorList {
			return autoscalingvalidation.ValidateHorizontalPodAutoscalerStatusUpdate(o, op)
		}
	case *policy.PodDisruptionBudget:
		op := old.(*policy.PodDisruptionBudget)
		o.Spec = op.Spec
		v = func() field.ErrorList {
			return policyvalidation.ValidatePodDisruptionBudgetStatusUpdate(o.Status, op.Status, field.NewPath("status"), policyv1.SchemeGroupVersion)
		}
	case *core.PersistentVolumeClaim:
		op := old.(*core.PersistentVolumeClaim)
		o.Spec = op.Spec
		v = func() field.ErrorList {
			return corevalidation.ValidatePersistentVolumeClaimStatusUpdate(o, op, corevalidation.ValidationOptionsForPersistentVolumeClaim(o, op))
		}
	case *core.ResourceQuota:
		op := old.(*core.ResourceQuota)
		o.Spec = op.Spec
		v = func() field.ErrorList { return corevalidation.ValidateResourceQuotaStatusUpdate(o, op) }
	default:
		return nil, fmt.Errorf("no status reference for %T", obj)
	}
	for _, e := range commonUpdate(obj, old, v) {
		causes = append(causes, string(e.Type)+"|"+e.Field+"|"+e.ErrorBody())
	}
	return causes, nil
}

var _ runtime.Object = (*core.Pod)(nil)

// TestStatusDifferential writes generated statuses through each kind's
// status subresource (PUT …/status) and compares the causes with the real
// status strategy's.
func TestStatusDifferential(t *testing.T) {
	for _, k := range Kinds {
		muts, ok := statusMuts[k.Name]
		if !ok {
			continue
		}
		s := newServer(t)
		base, _ := json.Marshal(k.base())
		code, stored := s.do("POST", collection(k), base)
		if code != 201 {
			t.Fatalf("%s: base object refused: %s", k.Name, stored)
		}
		var storedObj map[string]any
		_ = json.Unmarshal(stored, &storedObj)
		delete(storedObj["metadata"].(map[string]any), "managedFields")
		stored, _ = json.Marshal(storedObj)
		oldForRef := withMeta(stored, true, k.Cluster)
		name := k.base()["metadata"].(map[string]any)["name"].(string)
		sk := *k
		sk.Own, sk.PodSpec = muts, ""
		tl := &tally{kind: k.Name, op: "status"}
		for _, c := range sk.statusCases(casesPerKind) {
			var obj map[string]any
			_ = json.Unmarshal(stored, &obj)
			for _, m := range c.Muts {
				apply(obj, m)
			}
			b, _ := json.Marshal(obj)
			o := s.ours(k, "PUT", collection(k)+"/"+name+"/status", b)
			// map order varies in the real code: run it again until it
			// gives ours (as ref does)
			var r outcome
			for i := 0; i < 64; i++ {
				rc, err := refStatus(k.GVK, withMeta(b, true, k.Cluster), oldForRef)
				r = outcome{causes: norm(rc)}
				if err != nil {
					r = outcome{bad: err.Error()}
				}
				if r.bad != "" || r.String() == o.String() {
					break
				}
			}
			tl.add(c.ID, o, r)
		}
		pct := 100 * float64(tl.agree) / float64(max(tl.n, 1))
		t.Logf("%-24s status %6d cases, %6d refused, %6d agree (%.1f%%), %d skipped", k.Name, tl.n, tl.refNo, tl.agree, pct, tl.skip)
		for i, d := range tl.disagree {
			if i >= 5 {
				break
			}
			t.Logf("%s", d)
		}
		if pct < agreementFloor {
			t.Errorf("%s status: %.1f%% agreement, below the floor of %.0f%%", k.Name, pct, agreementFloor)
		}
	}
}

// statusCases is Cases over the status mutations only (no metadata ones).
func (k *Kind) statusCases(n int) []Case {
	all := k.Cases(n*4, 3)
	var out []Case
	for _, c := range all {
		onlyStatus := true
		for _, m := range c.Muts {
			if len(m.Path) < 7 || m.Path[:7] != "status." {
				onlyStatus = false
			}
		}
		if onlyStatus {
			out = append(out, c)
		}
		if len(out) == n {
			break
		}
	}
	return out
}
