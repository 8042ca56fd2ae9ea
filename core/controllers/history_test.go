package controllers_test

import (
	"encoding/json"
	"strings"
	"testing"
)

const revisions = "/apis/apps/v1/namespaces/default/controllerrevisions"

// historyOwner is a StatefulSet or DaemonSet "web" of one image.
func historyOwner(kind, image string, limit int64) m {
	spec := m{"selector": m{"matchLabels": m{"app": "web"}}, "revisionHistoryLimit": limit,
		"template": m{"metadata": m{"labels": m{"app": "web"}},
			"spec": m{"containers": []any{m{"name": "app", "image": image}}}}}
	if kind == "StatefulSet" {
		spec["serviceName"], spec["replicas"] = "web", int64(1)
	}
	return m{"apiVersion": "apps/v1", "kind": kind, "metadata": m{"name": "web", "annotations": m{"team": "blue"}}, "spec": spec}
}

// revisionList is the owner's revisions as "name:revision:image", oldest
// revision first.
func (e *env) revisionList() string {
	byRev := map[int64]string{}
	var max int64
	for _, r := range e.items(revisions) {
		img := gets(get(r, "data", "spec", "template", "spec", "containers").([]any)[0], "image")
		byRev[geti(r, "revision")] = gets(r, "metadata", "name") + ":" + itoa(geti(r, "revision")) + ":" + img
		max = maxi(max, geti(r, "revision"))
	}
	var out []string
	for i := int64(1); i <= max; i++ {
		if s, ok := byRev[i]; ok {
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}

func maxi(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// TestControllerRevisions: both controllers keep one ControllerRevision
// per template (owner-<hash>, data the $patch:replace template, the
// template's labels plus the hash label, the owner's annotations, a
// controller reference), renumber an equal older one on a rollback (as
// `kubectl rollout undo` patches the revision's data back), trim old ones
// to revisionHistoryLimit, and lose them with their owner. The names are
// kube v1.37.2's for the same templates.
func TestControllerRevisions(t *testing.T) {
	for _, tc := range []struct {
		kind, path, hashLabel string
		first                 string // kube's revision name for app:1
	}{
		{"StatefulSet", "/apis/apps/v1/namespaces/default/statefulsets", "controller.kubernetes.io/hash", "web-5cd748bc4"},
		{"DaemonSet", "/apis/apps/v1/namespaces/default/daemonsets", "controller-revision-hash", "web-8bcb88b49"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			e := start(t)
			setImage := func(img string) {
				e.must(200, "PATCH", tc.path+"/web", "application/strategic-merge-patch+json",
					m{"spec": m{"template": m{"spec": m{"containers": []any{m{"name": "app", "image": img}}}}}})
				e.idle()
			}
			e.must(201, "POST", tc.path, "application/json", historyOwner(tc.kind, "app:1", 2))
			e.idle()
			l := e.items(revisions)
			if len(l) != 1 {
				t.Fatalf("%d revisions, want 1", len(l))
			}
			first := l[0]
			name, hash := gets(first, "metadata", "name"), gets(first, "metadata", "labels", tc.hashLabel)
			t.Run("first revision", func(t *testing.T) {
				if name != tc.first || name != "web-"+hash || geti(first, "revision") != 1 {
					t.Errorf("name %s, hash %s, revision %d", name, hash, geti(first, "revision"))
				}
				if gets(first, "metadata", "labels", "app") != "web" || gets(first, "metadata", "annotations", "team") != "blue" {
					t.Errorf("metadata = %v", first["metadata"])
				}
				ref := get(first, "metadata", "ownerReferences").([]any)[0]
				if gets(ref, "kind") != tc.kind || get(ref, "controller") != true || gets(ref, "name") != "web" {
					t.Errorf("ownerReference = %v", ref)
				}
				if gets(first, "data", "spec", "template", "$patch") != "replace" ||
					gets(first, "data", "spec", "template", "spec", "dnsPolicy") != "ClusterFirst" {
					t.Errorf("data = %v", first["data"])
				}
			})
			t.Run("pods carry the revision", func(t *testing.T) {
				want := hash
				if tc.kind == "StatefulSet" {
					want = name
				}
				ps := e.items(pods + "?labelSelector=app%3Dweb")
				if len(ps) != 1 || gets(ps[0], "metadata", "labels", "controller-revision-hash") != want {
					t.Errorf("pods = %d, want one labelled %s", len(ps), want)
				}
			})
			setImage("app:2")
			setImage("app:1") // a rollback: revision 1 becomes 3
			if got, want := e.revisionList(), "web-?:2:app:2 "+name+":3:app:1"; !matchNames(got, want) {
				t.Errorf("after the rollback: %s, want %s", got, want)
			}
			if tc.kind == "StatefulSet" {
				s := e.must(200, "GET", tc.path+"/web", "", nil)
				if gets(s, "status", "updateRevision") != name || gets(s, "status", "currentRevision") != name {
					t.Errorf("status = %v", s["status"])
				}
			}
			setImage("app:3")
			setImage("app:4")
			setImage("app:5") // limit 2: app:2 (2) and app:1 (3) go
			if got, want := e.revisionList(), "web-?:4:app:3 web-?:5:app:4 web-?:6:app:5"; !matchNames(got, want) {
				t.Errorf("after trimming: %s, want %s", got, want)
			}
			e.must(200, "DELETE", tc.path+"/web", "", nil)
			e.eventually("revisions collected with their owner", func() (bool, string) {
				n := len(e.items(revisions))
				return n == 0, itoa(int64(n))
			})
		})
	}
}

// matchNames compares revisionList output where "web-?" stands for any
// revision name.
func matchNames(got, want string) bool {
	g, w := strings.Fields(got), strings.Fields(want)
	if len(g) != len(w) {
		return false
	}
	for i := range g {
		if rest, ok := strings.CutPrefix(w[i], "web-?"); ok {
			_, gr, _ := strings.Cut(g[i], ":")
			if ":"+gr != rest {
				return false
			}
		} else if g[i] != w[i] {
			return false
		}
	}
	return true
}

// TestRevisionNameCollision: a revision name taken by other data bumps
// the owner's status.collisionCount and the revision is named by the
// next hash (all names as kube v1.37.2 writes them for this template).
func TestRevisionNameCollision(t *testing.T) {
	for _, tc := range []struct {
		kind, path, taken, next string
	}{
		{"StatefulSet", "/apis/apps/v1/namespaces/default/statefulsets", "web-5cd748bc4", "web-5cd748bc5"},
		{"DaemonSet", "/apis/apps/v1/namespaces/default/daemonsets", "web-8bcb88b49", "web-7c5dc8958d"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			e := start(t)
			e.must(201, "POST", revisions, "application/json", m{"apiVersion": "apps/v1", "kind": "ControllerRevision",
				"metadata": m{"name": tc.taken}, "data": m{"other": true}, "revision": int64(1)})
			e.must(201, "POST", tc.path, "application/json", historyOwner(tc.kind, "app:1", 10))
			e.idle()
			var owned []string
			for _, r := range e.items(revisions) {
				if get(r, "metadata", "ownerReferences") != nil {
					owned = append(owned, gets(r, "metadata", "name"))
				}
			}
			o := e.must(200, "GET", tc.path+"/web", "", nil)
			if strings.Join(owned, ",") != tc.next || geti(o, "status", "collisionCount") != 1 {
				b, _ := json.Marshal(o["status"])
				t.Errorf("owned revisions %v, status %s; want %s and collisionCount 1", owned, b, tc.next)
			}
		})
	}
}
