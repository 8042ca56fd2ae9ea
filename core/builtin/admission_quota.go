package builtin

import (
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/builtin/quota"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// quotaPlugin is kube's ResourceQuota admission plugin (k8s.io/apiserver
// pkg/admission/plugin/resourcequota: CheckRequest), the last of the
// chain: a create (or an update that changes usage) is measured against
// every ResourceQuota of its namespace that limits what it uses; a quota
// whose status the controller has not filled yet, a pod missing the
// requests or limits a quota needs, or usage beyond status.hard is 403;
// otherwise the admitted usage is added to status.used at once.
//
//	ResourceQuota counts {hard: {services: 1}, used: {services: 1}}
//	POST services {name: two}
//	→ 403 services "two" is forbidden: exceeded quota: counts, requested: services=1, used: services=1, limited: services=1
var quotaPlugin = &resource.AdmissionPlugin{
	Name:     "ResourceQuota",
	Reads:    []resource.GroupResource{{Resource: "resourcequotas"}},
	Validate: admitQuota,
	Last:     true,
}

func admitQuota(a *resource.Attributes) error {
	if a.Namespace == "" || quota.Ignored(a.Group, a.Resource) || !quotaHandles(a) {
		return nil
	}
	quotas := a.Objects.List("", "resourcequotas", a.Namespace)
	if len(quotas) == 0 {
		return nil
	}
	var interesting []resource.Object
	for _, q := range quotas {
		hard := quota.HardNames(q)
		if !quota.Applies(q, a.Group, a.Resource, a.Obj, hard) {
			continue
		}
		restricted := quota.Matching(a.Group, a.Resource, hard) // sorted as hard
		if msg := quota.Constraints(a.Group, a.Resource, restricted, a.Obj); msg != "" {
			return forbidden(a, "failed quota: "+metaStr(q, "name")+": "+msg)
		}
		used := Obj(Obj(q, "status"), "used")
		for _, r := range restricted {
			if _, ok := used[r]; !ok {
				return forbidden(a, "status unknown for quota: "+metaStr(q, "name")+", resources: "+strings.Join(restricted, ","))
			}
		}
		interesting = append(interesting, q)
	}
	// (kube refuses negative usage here too: validation already refused
	// negative requests and limits)
	if len(interesting) == 0 {
		return nil
	}
	usage := quota.Usage(a.Group, a.Resource, a.Obj, a.Now)
	var oldUsage quota.Resources
	if a.Operation == "UPDATE" && metaStr(a.Old, "resourceVersion") != "" {
		oldUsage = quota.Usage(a.Group, a.Resource, a.Old, a.Now)
	}
	// every quota first, then the writes (CheckRequest, then the status
	// updates)
	deltas := make([]quota.Resources, len(interesting))
	for i, q := range interesting {
		d := quota.Delta(usage, nil)
		if oldUsage != nil && quota.Applies(q, a.Group, a.Resource, a.Old, quota.HardNames(q)) {
			d = quota.Delta(usage, oldUsage)
		}
		if err := checkQuota(a, q, d); err != nil {
			return err
		}
		deltas[i] = d
	}
	for i, q := range interesting {
		d := deltas[i]
		if len(d) == 0 {
			continue
		}
		err := a.UpdateStatus("", "resourcequotas", a.Namespace, metaStr(q, "name"), func(cur resource.Object) error {
			if err := checkQuota(a, cur, d); err != nil {
				return err
			}
			if st := Obj(cur, "status"); st != nil {
				st["used"] = quota.JSON(quota.Add(quota.Parse(Obj(st, "used")), quota.Mask(d, quota.HardNames(cur))))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// checkQuota: the quota's used plus the requested delta (of what it
// limits) within status.hard, or kube's "exceeded quota" 403.
func checkQuota(a *resource.Attributes, q resource.Object, d quota.Resources) error {
	st := Obj(q, "status")
	hard, used := quota.Parse(Obj(st, "hard")), quota.Parse(Obj(st, "used"))
	requested := quota.Mask(d, quota.HardNames(q))
	if a.Subresource == "status" || len(requested) == 0 {
		return nil
	}
	next := quota.Add(quota.Mask(used, Keys(requested)), requested)
	exceeded := quota.Exceeded(next, hard)
	if len(exceeded) == 0 {
		return nil
	}
	return forbidden(a, "exceeded quota: "+metaStr(q, "name")+
		", requested: "+quota.Pretty(quota.Mask(requested, exceeded))+
		", used: "+quota.Pretty(quota.Mask(used, exceeded))+
		", limited: "+quota.Pretty(quota.Mask(hard, exceeded)))
}

// quotaHandles is each evaluator's Handles: object counts and pods on
// create (a pod also when its activeDeadlineSeconds makes it
// (not) terminating), services and claims on create and update (a
// claim's status too when its allocated storage shrinks — left out).
func quotaHandles(a *resource.Attributes) bool {
	if a.Subresource != "" {
		return false
	}
	if a.Operation == "CREATE" {
		return true
	}
	if a.Group != "" {
		return false
	}
	switch a.Resource {
	case "services", "persistentvolumeclaims":
		return true
	case "pods":
		_, was := IntOK(Obj(a.Old, "spec"), "activeDeadlineSeconds")
		_, is := IntOK(Obj(a.Obj, "spec"), "activeDeadlineSeconds")
		return was != is
	}
	return false
}

// prepareQuotaCreate is the strategy's PrepareForCreate: a new quota's
// status is empty (the controller fills it).
func prepareQuotaCreate(obj map[string]any) { obj["status"] = map[string]any{} }
