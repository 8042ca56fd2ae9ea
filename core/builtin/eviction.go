package builtin

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// pods/eviction (POST a policy/v1 or policy/v1beta1 Eviction), as
// kube-apiserver v1.37.2's EvictionREST answers it
// (pkg/registry/core/pod/storage/eviction.go):
//
//   - a pod that is Pending, Succeeded, Failed or already being deleted is
//     deleted at once, without looking at budgets;
//   - otherwise the PodDisruptionBudgets of its namespace whose selector
//     matches it decide: none, the pod is deleted; more than one, the
//     answer is 201 carrying a Status "Failure" with code 500 ("This pod
//     has more than one PodDisruptionBudget, which the eviction
//     subresource does not support."); one, its status must allow a
//     disruption: status.disruptionsAllowed is decremented, the pod is
//     recorded under status.disruptedPods and the PDB's status written
//     (as kube-apiserver, through its own API), then the pod deleted.
//     A budget that does not allow it answers 429 TooManyRequests "Cannot
//     evict pod as it would violate the pod's disruption budget." with a
//     DisruptionBudget cause, e.g. "The disruption budget web needs 2
//     healthy pods and has 2 currently"; a budget its controller has not
//     seen yet (status.observedGeneration < metadata.generation) answers
//     429 with Retry-After 10: "The disruption budget web is still being
//     processed by the server.";
//   - the pod gets the DisruptionTarget=True condition (reason
//     EvictionByEvictionAPI) before the delete, which follows the
//     Eviction's deleteOptions (grace period, preconditions, dryRun).
//
// The answer is 201 {"kind":"Status","status":"Success","code":201}. The
// budgets' status is computed by the disruption controller
// (core/controllers/disruption.go); with the controllers off, as in the
// test mode, a budget never allows an eviction, as on a cluster without
// kube-controller-manager.
var podEviction = resource.Subresource{Name: "eviction", Kind: "Eviction", Group: "policy", Version: "v1", Def: "io.k8s.api.policy.v1.Eviction",
	Verbs: []string{"create"}, Serve: podEvict}

// maxDisruptedPods is MaxDisruptedPodSize.
const maxDisruptedPods = 2000

// evictionRetries is EvictionsRetry's Steps.
const evictionRetries = 20

const (
	disruptionBudgetCause = "DisruptionBudget"
	evictionRefused       = "Cannot evict pod as it would violate the pod's disruption budget."
)

var pdbGR = apierr.GR{Group: "policy", Resource: "poddisruptionbudget"}

func podEvict(r *resource.SubRequest) (resource.SubAnswer, error) {
	ev, err := jsonx.DecodeObject(r.Body)
	if err != nil {
		return resource.SubAnswer{}, apierr.BadRequestf("the object provided is unrecognized (must be of type Eviction): %v", err)
	}
	pod := r.Obj
	name, ns := metaStr(pod, "name"), metaStr(pod, "namespace")
	if n := metaStr(ev, "namespace"); n != "" && n != ns {
		return resource.SubAnswer{}, apierr.BadRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if metaStr(ev, "name") != name {
		return resource.SubAnswer{}, apierr.BadRequest("name in URL does not match name in Eviction object")
	}
	opts := child(ev, "deleteOptions")
	if b, _ := opts["ignoreStoreReadErrorWithClusterBreakingPotential"].(bool); b {
		return resource.SubAnswer{}, apierr.Invalid(apierr.GK{Group: "policy", Kind: "Eviction"}, name, field.ErrorList{
			field.Invalid(field.NewPath("deleteOptions", "ignoreStoreReadErrorWithClusterBreakingPotential"), true, "can not be set for pod eviction, try after removing the option")})
	}
	opts, err = propagateDryRun(opts, r.Query["dryRun"])
	if err != nil {
		return resource.SubAnswer{}, err
	}
	e := &eviction{r: r, ns: ns, name: name, opts: opts, dry: slices.Contains(jsonx.Strings(opts["dryRun"]), "All")}
	if canIgnorePDB(pod) {
		o := opts
		if shouldEnforceResourceVersion(pod) && !hasRVPrecondition(opts) {
			o = withRVPrecondition(opts, metaStr(pod, "resourceVersion"))
		}
		return e.deletePod(o)
	}
	pdbs, err := e.budgets(pod)
	if err != nil {
		return resource.SubAnswer{}, err
	}
	switch len(pdbs) {
	case 0:
		return e.deletePod(opts)
	case 1:
	default:
		return resource.SubAnswer{Code: http.StatusCreated, Obj: resource.Object{"kind": "Status", "apiVersion": "v1",
			"metadata": map[string]any{}, "status": "Failure", "code": int64(http.StatusInternalServerError),
			"message": "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."}}, nil
	}
	pdb := pdbs[0]
	pdbName := metaStr(pdb, "name")
	if !podIsReady(pod) && unhealthyMayGo(pdb) {
		// deleted only as long as the pod is as seen (still unhealthy)
		_, err := e.deletePod(withRVPrecondition(opts, metaStr(pod, "resourceVersion")))
		if apierr.Is(err, apierr.ReasonConflict) && !hasRVPrecondition(opts) {
			return resource.SubAnswer{}, stillProcessing(pdbName)
		}
		if err != nil {
			return resource.SubAnswer{}, err
		}
		return evicted(), nil
	}
	if err := e.decrement(pdb); err != nil {
		return resource.SubAnswer{}, err
	}
	return e.deletePod(opts)
}

// eviction is one eviction in progress.
type eviction struct {
	r        *resource.SubRequest
	ns, name string
	opts     map[string]any // the DeleteOptions
	dry      bool
}

func evicted() resource.SubAnswer {
	return resource.SubAnswer{Code: http.StatusCreated, Obj: resource.Object{"kind": "Status", "apiVersion": "v1",
		"metadata": map[string]any{}, "status": "Success", "code": int64(http.StatusCreated)}}
}

// propagateDryRun: the request's dryRun and the deleteOptions' must agree
// (either may be empty).
func propagateDryRun(opts map[string]any, query []string) (map[string]any, error) {
	if opts == nil {
		opts = map[string]any{}
	}
	body := jsonx.Strings(opts["dryRun"])
	switch {
	case len(body) == 0:
		if len(query) > 0 {
			opts["dryRun"] = jsonx.Anys(query)
		}
	case len(query) > 0 && !slices.Equal(query, body):
		return nil, apierr.Unknown(fmt.Sprintf("Non-matching dry-run options in request and content: %v and %v", query, body))
	}
	return opts, nil
}

// canIgnorePDB: a pod that is not running (Pending, terminal) or already
// being deleted is deleted without a budget check.
func canIgnorePDB(pod resource.Object) bool {
	switch str(child(pod, "status"), "phase") {
	case "Succeeded", "Failed", "Pending":
		return true
	}
	return metaStr(pod, "deletionTimestamp") != ""
}

func shouldEnforceResourceVersion(pod resource.Object) bool {
	switch str(child(pod, "status"), "phase") {
	case "Succeeded", "Failed":
		return false
	}
	return metaStr(pod, "deletionTimestamp") == ""
}

func hasRVPrecondition(opts map[string]any) bool {
	_, ok := child(opts, "preconditions")["resourceVersion"].(string)
	return ok
}

func withRVPrecondition(opts map[string]any, rv string) map[string]any {
	o := jsonx.CopyObject(opts)
	ensure(o, "preconditions")["resourceVersion"] = rv
	return o
}

// podIsReady is IsPodReady: the Ready condition is True.
func podIsReady(pod resource.Object) bool {
	for _, c := range items(child(pod, "status"), "conditions") {
		if str(c, "type") == "Ready" {
			return str(c, "status") == "True"
		}
	}
	return false
}

// unhealthyMayGo: an unready pod is evicted without using up the budget
// when the policy is AlwaysAllow, or when the budget is met anyway.
func unhealthyMayGo(pdb resource.Object) bool {
	if str(child(pdb, "spec"), "unhealthyPodEvictionPolicy") == "AlwaysAllow" {
		return true
	}
	st := child(pdb, "status")
	cur, _ := num(st, "currentHealthy")
	desired, _ := num(st, "desiredHealthy")
	return cur >= desired && desired > 0
}

func stillProcessing(pdb string) error {
	return apierr.TooManyRequests(evictionRefused, 10, apierr.Cause{Type: disruptionBudgetCause,
		Message: fmt.Sprintf("The disruption budget %s is still being processed by the server.", pdb)})
}

func (e *eviction) pdbPath(name string) string {
	p := "/apis/policy/v1/namespaces/" + url.PathEscape(e.ns) + "/poddisruptionbudgets"
	if name != "" {
		p += "/" + url.PathEscape(name)
	}
	return p
}

// budgets lists the namespace's PodDisruptionBudgets that select pod
// (a selector that does not convert selects nothing).
func (e *eviction) budgets(pod resource.Object) ([]resource.Object, error) {
	list, err := e.r.Loopback(http.MethodGet, e.pdbPath(""), nil)
	if err != nil {
		return nil, err
	}
	labels := map[string]string{}
	for k, v := range child(child(pod, "metadata"), "labels") {
		labels[k], _ = v.(string)
	}
	var out []resource.Object
	for _, pdb := range items(list, "items") {
		sel, ok := common.AsSelector(child(child(pdb, "spec"), "selector"))
		if ok && sel.Matches(labels) {
			out = append(out, pdb)
		}
	}
	return out, nil
}

// decrement is checkAndDecrement, retried on conflicts with a fresh copy
// of the budget (RetryOnConflict).
func (e *eviction) decrement(pdb resource.Object) error {
	name := metaStr(pdb, "name")
	for i := 0; i < evictionRetries; i++ {
		if i > 0 {
			var err error
			if pdb, err = e.r.Loopback(http.MethodGet, e.pdbPath(name), nil); err != nil {
				return err
			}
		}
		err := e.checkAndDecrement(pdb)
		if !apierr.Is(err, apierr.ReasonConflict) {
			return err
		}
	}
	return apierr.Timeout(fmt.Sprintf("Timeout: couldn't update PodDisruptionBudget %q due to conflicts", name), 10)
}

func (e *eviction) checkAndDecrement(pdb resource.Object) error {
	name := metaStr(pdb, "name")
	st := ensure(pdb, "status")
	observed, _ := num(st, "observedGeneration")
	gen, _ := num(child(pdb, "metadata"), "generation")
	allowed, _ := num(st, "disruptionsAllowed")
	switch {
	case observed < gen:
		return stillProcessing(name)
	case allowed < 0:
		return apierr.Forbidden(pdbGR, name, "pdb disruptions allowed is negative").WithCauses(apierr.Cause{Type: disruptionBudgetCause,
			Message: fmt.Sprintf("The disruption budget %s does not allow evicting pods currently: pdb disruptions allowed is negative", name)})
	case len(child(st, "disruptedPods")) > maxDisruptedPods:
		return apierr.Forbidden(pdbGR, name, "DisruptedPods map too big - too many evictions not confirmed by PDB controller").WithCauses(apierr.Cause{Type: disruptionBudgetCause,
			Message: fmt.Sprintf("The disruption budget %s does not allow evicting pods currently: too many pending evictions not confirmed by PDB controller", name)})
	case allowed == 0:
		return apierr.TooManyRequests(evictionRefused, 0, apierr.Cause{Type: disruptionBudgetCause, Message: budgetRefusal(name, st)})
	}
	st["disruptionsAllowed"] = allowed - 1
	if allowed-1 == 0 {
		SetDisruptionAllowedCondition(pdb, e.r.Now)
	}
	if e.dry {
		return nil
	}
	ensure(st, "disruptedPods")[e.name] = e.r.Now
	_, err := e.r.Loopback(http.MethodPut, e.pdbPath(name)+"/status", pdb)
	return err
}

// budgetRefusal is the cause's message of a budget with no disruption
// left.
func budgetRefusal(name string, st map[string]any) string {
	var cond map[string]any
	for _, c := range items(st, "conditions") {
		if str(c, "type") == "DisruptionAllowed" {
			cond = c
		}
	}
	cur, _ := num(st, "currentHealthy")
	desired, _ := num(st, "desiredHealthy")
	failed := cond != nil && str(cond, "status") == "False" && str(cond, "message") != ""
	switch {
	case failed && str(cond, "reason") == "SyncFailed":
		return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently because it failed sync: %s", name, str(cond, "message"))
	case cur <= desired:
		return fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", name, desired, cur)
	case failed:
		return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently (%s): %s", name, str(cond, "reason"), str(cond, "message"))
	}
	return fmt.Sprintf("The disruption budget %s does not allow evicting pods currently", name)
}

// SetDisruptionAllowedCondition is UpdateDisruptionAllowedCondition: the
// DisruptionAllowed condition follows status.disruptionsAllowed
// (SufficientPods / InsufficientPods), its lastTransitionTime now when its
// status changes (meta.SetStatusCondition). The disruption controller
// shares it.
func SetDisruptionAllowedCondition(pdb resource.Object, now string) {
	st := ensure(pdb, "status")
	allowed, _ := num(st, "disruptionsAllowed")
	gen, _ := num(st, "observedGeneration")
	c := map[string]any{"type": "DisruptionAllowed", "status": "False", "reason": "InsufficientPods",
		"message": "", "observedGeneration": gen, "lastTransitionTime": now}
	if allowed > 0 {
		c["status"], c["reason"] = "True", "SufficientPods"
	}
	if gen == 0 {
		delete(c, "observedGeneration") // omitempty
	}
	conds := listOf(st["conditions"])
	for i, old := range conds {
		om := mapOf(old)
		if str(om, "type") != "DisruptionAllowed" {
			continue
		}
		if str(om, "status") == c["status"] && str(om, "lastTransitionTime") != "" {
			c["lastTransitionTime"] = om["lastTransitionTime"]
		}
		conds[i] = c
		return
	}
	st["conditions"] = append(conds, c)
}

// deletePod is addConditionAndDeletePod: unless a dry run, the pod gets
// the DisruptionTarget condition (the options' preconditions checked, and
// a resourceVersion precondition moved on to the updated pod), then it is
// deleted with opts.
func (e *eviction) deletePod(opts map[string]any) (resource.SubAnswer, error) {
	if !e.dry {
		pre := child(opts, "preconditions")
		pod, err := e.r.Update(func(pod resource.Object) error {
			m := child(pod, "metadata")
			if u := str(pre, "uid"); u != "" && u != str(m, "uid") {
				return apierr.Conflict(apierr.GR{Resource: "Pod"}, e.name, fmt.Sprintf("the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated", u, str(m, "uid")))
			}
			if v := str(pre, "resourceVersion"); v != "" && v != str(m, "resourceVersion") {
				return apierr.Conflict(apierr.GR{Resource: "Pod"}, e.name, fmt.Sprintf("the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified", v, str(m, "resourceVersion")))
			}
			setPodCondition(pod, map[string]any{"type": "DisruptionTarget", "status": "True",
				"reason": "EvictionByEvictionAPI", "message": "Eviction API: evicting"}, e.r.Now)
			return nil
		})
		if err != nil {
			return resource.SubAnswer{}, err
		}
		if hasRVPrecondition(opts) {
			opts = withRVPrecondition(opts, metaStr(pod, "resourceVersion"))
		}
	}
	path := "/api/v1/namespaces/" + url.PathEscape(e.ns) + "/pods/" + url.PathEscape(e.name)
	if _, err := e.r.Loopback(http.MethodDelete, path, opts); err != nil {
		return resource.SubAnswer{}, err
	}
	return evicted(), nil
}

// setPodCondition is UpdatePodCondition: cond replaces the condition of
// its type, lastTransitionTime kept unless the status changes.
func setPodCondition(pod resource.Object, cond map[string]any, now string) {
	st := ensure(pod, "status")
	cond["lastProbeTime"] = nil
	cond["lastTransitionTime"] = now
	conds, _ := st["conditions"].([]any)
	for i, c := range conds {
		cm := mapOf(c)
		if str(cm, "type") != str(cond, "type") {
			continue
		}
		if str(cm, "status") == str(cond, "status") {
			cond["lastTransitionTime"] = cm["lastTransitionTime"]
		}
		conds[i] = cond
		return
	}
	st["conditions"] = append(conds, cond)
}
