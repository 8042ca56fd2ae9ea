package controllers

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/gotypes"
)

// Helpers of the Deployment controller, after
// pkg/controller/deployment/util/deployment_util.go.

const (
	labelPodTemplateHash = "pod-template-hash"
	annRevision          = "deployment.kubernetes.io/revision"
	annRevisionHistory   = "deployment.kubernetes.io/revision-history"
	annDesiredReplicas   = "deployment.kubernetes.io/desired-replicas"
	annMaxReplicas       = "deployment.kubernetes.io/max-replicas"

	maxRevHistoryLengthInChars = 2000
)

// annotationsToSkip are not copied from a Deployment to its ReplicaSets.
var annotationsToSkip = map[string]bool{
	"kubectl.kubernetes.io/last-applied-configuration": true,
	annRevision: true, annRevisionHistory: true, annDesiredReplicas: true, annMaxReplicas: true,
	"deprecated.deployment.rollback.to": true,
}

// Condition reasons (deployment_util.go).
const (
	reasonNewRSCreated       = "NewReplicaSetCreated"
	reasonFoundNewRS         = "FoundNewReplicaSet"
	reasonNewRSAvailable     = "NewReplicaSetAvailable"
	reasonRSUpdated          = "ReplicaSetUpdated"
	reasonPaused             = "DeploymentPaused"
	reasonResumed            = "DeploymentResumed"
	reasonTimedOut           = "ProgressDeadlineExceeded"
	reasonMinimumAvailable   = "MinimumReplicasAvailable"
	reasonMinimumUnavailable = "MinimumReplicasUnavailable"
)

// safeEncodeAlphabet is rand.SafeEncodeString's alphabet (no vowels, no
// confusable characters).
const safeEncodeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

func safeEncodeString(s string) string {
	r := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = safeEncodeAlphabet[int(s[i])%len(safeEncodeAlphabet)]
	}
	return string(r)
}

// computeHash is controller.ComputeHash: FNV-32a of the pod template as
// go-spew prints the Go value (hashutil.DeepHashObject; core/gotypes),
// then the collision count as 8 little-endian bytes (4 used), rendered in
// decimal through SafeEncodeString — the "7c5ddbdf54" of a real cluster
// for the same template.
func computeHash(template any, collisionCount *int64) string {
	h := fnv.New32a()
	h.Write([]byte(gotypes.Spew(gotypes.PodTemplateSpec, template)))
	if collisionCount != nil {
		buf := make([]byte, 8)
		binary.LittleEndian.PutUint32(buf, uint32(*collisionCount))
		h.Write(buf)
	}
	return safeEncodeString(fmt.Sprint(h.Sum32()))
}

// equalIgnoreHash compares two pod templates without the
// pod-template-hash label (an empty label map equals none).
func equalIgnoreHash(a, b obj) bool {
	strip := func(t obj) obj {
		c := copyObj(t)
		if c == nil {
			c = obj{}
		}
		if md := child(c, "metadata"); md != nil {
			if l := child(md, "labels"); l != nil {
				delete(l, labelPodTemplateHash)
				if len(l) == 0 {
					delete(md, "labels")
				}
			}
			if len(md) == 0 {
				delete(c, "metadata")
			}
		}
		return c
	}
	return sameJSON(strip(a), strip(b))
}

// scaledValue is intstr.GetScaledValueFromIntOrPercent.
func scaledValue(v any, total int64, roundUp bool) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	case string:
		p, err := strconv.Atoi(strings.TrimSuffix(x, "%"))
		if err != nil || !strings.HasSuffix(x, "%") {
			if n, err := strconv.Atoi(x); err == nil {
				return int64(n)
			}
			return 0
		}
		if roundUp {
			return int64(math.Ceil(float64(p) * float64(total) / 100))
		}
		return int64(math.Floor(float64(p) * float64(total) / 100))
	}
	return 0
}

func replicas(o obj) int64 { return numOr(o, 1, "spec", "replicas") }

func isRolling(d obj) bool { return str(d, "spec", "strategy", "type") != "Recreate" }

// resolveFenceposts returns maxSurge and maxUnavailable for d.
func resolveFenceposts(d obj) (int64, int64) {
	ru := child(d, "spec", "strategy", "rollingUpdate")
	desired := replicas(d)
	surgeV, unavailV := any("25%"), any("25%")
	if ru != nil {
		if v, ok := ru["maxSurge"]; ok {
			surgeV = v
		}
		if v, ok := ru["maxUnavailable"]; ok {
			unavailV = v
		}
	}
	surge := scaledValue(surgeV, desired, true)
	unavail := scaledValue(unavailV, desired, false)
	if surge == 0 && unavail == 0 {
		unavail = 1
	}
	return surge, unavail
}

func maxSurge(d obj) int64 {
	if !isRolling(d) {
		return 0
	}
	s, _ := resolveFenceposts(d)
	return s
}

func maxUnavailable(d obj) int64 {
	if !isRolling(d) || replicas(d) == 0 {
		return 0
	}
	_, u := resolveFenceposts(d)
	if u > replicas(d) {
		return replicas(d)
	}
	return u
}

func annotation(o obj, k string) string { return str(o, "metadata", "annotations", k) }

func setAnnotation(o obj, k, v string) { ensure(o, "metadata", "annotations")[k] = v }

func revisionOf(rs obj) int64 {
	n, _ := strconv.ParseInt(annotation(rs, annRevision), 10, 64)
	return n
}

func maxRevision(l []obj) int64 {
	var max int64
	for _, rs := range l {
		if v := revisionOf(rs); v > max {
			max = v
		}
	}
	return max
}

// setReplicasAnnotations sets desired-replicas and max-replicas.
func setReplicasAnnotations(rs obj, desired, max int64) bool {
	changed := false
	for k, v := range map[string]string{annDesiredReplicas: itoa(desired), annMaxReplicas: itoa(max)} {
		if annotation(rs, k) != v {
			setAnnotation(rs, k, v)
			changed = true
		}
	}
	return changed
}

// setNewReplicaSetAnnotations copies d's annotations, advances the
// revision (keeping the older one in revision-history on a rollback) and,
// for a ReplicaSet about to be created, sets the replicas annotations.
func setNewReplicaSetAnnotations(d, rs obj, newRevision int64, exists bool) bool {
	changed := false
	for k, v := range strMap(d, "metadata", "annotations") {
		if annotationsToSkip[k] {
			continue
		}
		if cur, ok := child(rs, "metadata", "annotations")[k].(string); ok && cur == v {
			continue
		}
		setAnnotation(rs, k, v)
		changed = true
	}
	oldRevision := annotation(rs, annRevision)
	oldInt, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil {
		if oldRevision != "" {
			return false
		}
		oldInt = 0
	}
	if oldInt < newRevision {
		setAnnotation(rs, annRevision, itoa(newRevision))
		changed = true
		if oldRevision != "" {
			hist := annotation(rs, annRevisionHistory)
			if hist == "" {
				setAnnotation(rs, annRevisionHistory, oldRevision)
			} else {
				olds := strings.Split(hist, ",")
				total, start := len(hist)+len(oldRevision)+1, 0
				for total > maxRevHistoryLengthInChars && start < len(olds) {
					total -= len(olds[start]) + 1
					start++
				}
				if total <= maxRevHistoryLengthInChars {
					setAnnotation(rs, annRevisionHistory, strings.Join(append(olds[start:], oldRevision), ","))
				}
			}
		}
	}
	if !exists && setReplicasAnnotations(rs, replicas(d), replicas(d)+maxSurge(d)) {
		changed = true
	}
	return changed
}

// ---- conditions -------------------------------------------------------------

func getCondition(status obj, t string) obj {
	for _, c := range list(status, "conditions") {
		if cm, ok := c.(map[string]any); ok && str(cm, "type") == t {
			return cm
		}
	}
	return nil
}

func (m *Manager) newDeploymentCondition(t, status, reason, message string) obj {
	now := m.timestamp()
	return obj{"type": t, "status": status, "lastUpdateTime": now, "lastTransitionTime": now, "reason": reason, "message": message}
}

// setCondition is SetDeploymentCondition: no change for the same status
// and reason; a kept status keeps lastTransitionTime; the condition moves
// to the end.
func setCondition(status obj, c obj) {
	cur := getCondition(status, str(c, "type"))
	if cur != nil && str(cur, "status") == str(c, "status") && str(cur, "reason") == str(c, "reason") {
		return
	}
	if cur != nil && str(cur, "status") == str(c, "status") {
		c["lastTransitionTime"] = cur["lastTransitionTime"]
	}
	removeCondition(status, str(c, "type"))
	status["conditions"] = append(list(status, "conditions"), c)
}

func removeCondition(status obj, t string) {
	var keep []any
	for _, c := range list(status, "conditions") {
		if cm, ok := c.(map[string]any); ok && str(cm, "type") == t {
			continue
		}
		keep = append(keep, c)
	}
	if keep == nil {
		delete(status, "conditions")
		return
	}
	status["conditions"] = keep
}

func hasProgressDeadline(d obj) bool {
	v, ok := num(d, "spec", "progressDeadlineSeconds")
	return ok && v != math.MaxInt32
}

// deploymentComplete: every replica updated and available, generation seen.
func deploymentComplete(d obj, st obj) bool {
	r := replicas(d)
	return numOr(st, 0, "updatedReplicas") == r && numOr(st, 0, "replicas") == r &&
		numOr(st, 0, "availableReplicas") == r && numOr(st, 0, "observedGeneration") >= generation(d)
}

// deploymentProgressing compares the new status with d's.
func deploymentProgressing(d obj, st obj) bool {
	old := child(d, "status")
	oldOld := numOr(old, 0, "replicas") - numOr(old, 0, "updatedReplicas")
	newOld := numOr(st, 0, "replicas") - numOr(st, 0, "updatedReplicas")
	return numOr(st, 0, "updatedReplicas") > numOr(old, 0, "updatedReplicas") || newOld < oldOld ||
		numOr(st, 0, "readyReplicas") > numOr(old, 0, "readyReplicas") ||
		numOr(st, 0, "availableReplicas") > numOr(old, 0, "availableReplicas")
}

func sumRS(l []obj, path ...string) int64 {
	var n int64
	for _, rs := range l {
		if rs != nil {
			if len(path) == 2 && path[0] == "spec" && path[1] == "replicas" {
				n += replicas(rs)
			} else {
				n += numOr(rs, 0, path...)
			}
		}
	}
	return n
}

func activeRS(l []obj) []obj {
	var out []obj
	for _, rs := range l {
		if rs != nil && replicas(rs) > 0 {
			out = append(out, rs)
		}
	}
	return out
}
