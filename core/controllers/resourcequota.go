package controllers

import (
	"net/http"
	"slices"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/builtin/quota"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// kube-controller-manager's resourcequota controller: a quota's
// status.hard is its spec.hard and status.used what its namespace holds
// of each resource it limits (quota.Usage of every object it applies to),
// written as manager kube-controller-manager on the status subresource:
//
//	ResourceQuota counts {spec: {hard: {pods: 3, configmaps: 2}}}
//	→ PUT …/resourcequotas/counts/status {status: {hard: {pods: 3, configmaps: 2}, used: {pods: 0, configmaps: 1}}}
//
// As there, a quota is computed again when it is new or its spec.hard
// changed (status.hard differs, or a limited resource has no used
// entry), and when usage is given back (replenishment: an object of its
// namespace deleted, a Pod that stops counting, a Service or claim whose
// usage changed) — not when something is created: the ResourceQuota
// admission plugin has counted that into status.used already. (kube's
// five-minute full resync is not run.)

var kResourceQuotas = kindInfo{"", "v1", "resourcequotas", "ResourceQuota", true}

// syncQuota computes a quota's status when it needs it.
func (m *Manager) syncQuota(key string, q obj) error {
	force := m.quotaDirty[key]
	delete(m.quotaDirty, key)
	if deleting(q) {
		return nil
	}
	hard := quota.Parse(child(q, "spec", "hard"))
	st := child(q, "status")
	statusHard, used := quota.Parse(child(st, "hard")), quota.Parse(child(st, "used"))
	names := common.Keys(hard)
	if !force && quota.Equal(hard, statusHard) && len(quota.Mask(used, names)) == len(names) {
		return nil
	}
	newUsed := m.quotaUsage(q, namespace(q), names)
	if st != nil && quota.Equal(hard, statusHard) && quota.Equal(newUsed, used) {
		return nil
	}
	next := copyObj(q)
	next["status"] = map[string]any{"hard": quota.JSON(hard), "used": quota.JSON(newUsed)}
	_, err := m.cm.do(m.ctx, http.MethodPut, kResourceQuotas.path(namespace(q), name(q), "status"), ctJSON, next)
	if isCode(err, http.StatusConflict) {
		// someone wrote the quota meanwhile — admission counting what it
		// admitted, at once, before storing the object: look again. Only
		// a recount that was asked for (a replenishment) is forced again;
		// forcing one after any conflict could miss an object admitted
		// and not yet stored and write its usage away, with nothing to
		// recount it later (kube's five-minute resync is not built)
		if force {
			m.markQuota(key)
		} else {
			m.q.add(key)
		}
	}
	return ignoreRace(err)
}

// quotaUsage sums the usage of the namespace's objects the quota applies
// to, for each name it limits (0 when nothing uses it).
func (m *Manager) quotaUsage(q obj, ns string, names []string) quota.Resources {
	used := quota.Resources{}
	for _, n := range names {
		used[n] = quota.Zero
	}
	now := m.timestamp()
	for _, gr := range quotaSources(names) {
		group, res, _ := strings.Cut(gr, "/")
		g := group
		if g == "" {
			g = "core"
		}
		kvs, _, _, _ := m.st.List("/"+g+"/"+res+"/"+ns+"/", "", 0, nil, 0)
		for _, kv := range kvs {
			if o := decode(kv.Value); o != nil && quota.Applies(q, group, res, o, names) {
				quota.Add(used, quota.Mask(quota.Usage(group, res, o, now), quota.Matching(group, res, names)))
			}
		}
	}
	return used
}

// quotaSources are the "group/resource"s whose objects the names count.
func quotaSources(names []string) []string {
	var out []string
	for _, n := range names {
		gr := ""
		if rest, ok := strings.CutPrefix(n, "count/"); ok {
			r, g, _ := strings.Cut(rest, ".")
			gr = g + "/" + r
		}
		for _, r := range []string{"pods", "services", "persistentvolumeclaims", "configmaps", "secrets", "replicationcontrollers", "resourcequotas"} {
			if gr == "" && len(quota.Matching("", r, []string{n})) > 0 {
				gr = "/" + r
			}
		}
		if gr != "" && !slices.Contains(out, gr) {
			out = append(out, gr)
		}
	}
	return out
}

// markQuota queues a quota to be computed again whatever its status.
func (m *Manager) markQuota(key string) {
	if m.quotaDirty == nil {
		m.quotaDirty = map[string]bool{}
	}
	m.quotaDirty[key] = true
	m.q.add(key)
}

// quotaReplenish is the replenishment controller: a namespaced object
// deleted, or one whose usage shrank or changed (a Pod that stops
// counting, a Service or claim written), queues its namespace's quotas.
func (m *Manager) quotaReplenish(ev store.Event, group, plural, ns string, cur, prev obj) {
	if ns == "" || plural == "resourcequotas" || quota.Ignored(group, plural) {
		return
	}
	if ev.Type != store.Delete {
		if prev == nil || group != "" {
			return
		}
		switch plural {
		case "pods", "services", "persistentvolumeclaims":
		default:
			return
		}
		now := m.timestamp()
		if quota.Equal(quota.Usage(group, plural, prev, now), quota.Usage(group, plural, cur, now)) {
			return
		}
	}
	kvs, _, _, _ := m.st.List(kResourceQuotas.storePrefix(ns), "", 0, nil, 0)
	for _, kv := range kvs {
		m.markQuota(kv.Key)
	}
}
