package controllers

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The kubelet of each simulated Node. No container ever runs: the kubelet
// writes the status a real one reports, in the real order, with the real
// events (source component "kubelet", host the Node's name):
//
//  1. the Pod is bound here: Pending, PodReadyToStartContainers True (the
//     sandbox, with its pod IP from the Node's 10.244.<i>.0/24), every
//     container waiting ContainerCreating; event Pulling `Pulling image "nginx:latest"`.
//  2. Options.PullDelay later: events Pulled (`Successfully pulled image
//     "nginx:latest" in 500ms (500ms including waiting). Image size: … bytes.`,
//     or, for imagePullPolicy IfNotPresent and an image this Node pulled
//     before, no Pulling and `Container image "nginx:1.27" already present
//     on machine and can be accessed by the pod`),
//     Created ("Container created"), Started ("Container started"); Running,
//     every container running (containerd:// ID, imageID), ready, started,
//     the conditions Initialized, Ready, ContainersReady True.
//  3. a Pod a Job owns has run for Options.RunDelay: Succeeded, its
//     containers terminated (reason Completed, exit code 0). Any other Pod
//     runs until deleted, whatever its restartPolicy: nothing here can tell
//     a `sleep 3600` from an `echo hi`, and a Job's Pod is the one whose
//     end the demos wait for.
//
// An image whose tag is "fail" (nginx:fail) cannot be pulled: at step 2
// the container waits ErrImagePull (message containerd's "not found"),
// with events Failed `Failed to pull image "nginx:fail": …` and Failed
// "Error: ErrImagePull"; a back-off later (20 pull delays — 10 s by
// default, as the kubelet's — doubling up to 5 min) it
// waits ImagePullBackOff (events BackOff `Back-off pulling image
// "nginx:fail"` and Failed "Error: ImagePullBackOff"), and then pulls
// again. Repeated events are aggregated (count, lastTimestamp).
//
// A bound Pod's DELETE leaves it Terminating (the grace period); its
// kubelet records Killing ("Stopping container web") and, Options.KillDelay
// later, reports its containers stopped (terminated, exit code 0, reason
// Completed: the Pod Succeeded, as a deleted Pod whose containers exit on
// SIGTERM ends) and deletes it with gracePeriodSeconds 0 (precondition:
// its uid).
//
// Options.Instant makes every delay 0 (tests); the image back-off then
// stops at ImagePullBackOff.

// The default delays: long enough that `kubectl get pods -w` shows
// ContainerCreating and Terminating, short enough not to bore.
const (
	DefaultPullDelay = 500 * time.Millisecond
	DefaultRunDelay  = 3 * time.Second
	DefaultKillDelay = 500 * time.Millisecond
	imageBackOffMax  = 5 * time.Minute
)

func (m *Manager) delay(d, def time.Duration) time.Duration {
	if m.opts.Instant {
		return 0
	}
	if d <= 0 {
		return def
	}
	return d
}

// wait reports whether key's step is still due later (and queues key for
// then); the first call for a step starts its clock.
func (m *Manager) wait(key string, d time.Duration) bool {
	if d <= 0 {
		return false
	}
	due, ok := m.due[key]
	if !ok {
		due = m.now().Add(d)
		m.due[key] = due
	}
	if left := due.Sub(m.now()); left > 0 {
		m.q.addAfter(m.ctx, key[strings.IndexByte(key, '/'):], left)
		return true
	}
	return false
}

// runPod moves a Pod bound to a simulated Node one step on.
func (m *Manager) runPod(p obj) error {
	key := kPods.storeKey(namespace(p), name(p))
	if deleting(p) {
		return m.killPod(p, key)
	}
	if terminal(p) {
		return nil
	}
	st := child(p, "status")
	cs := list(st, "containerStatuses")
	if str(st, "startTime") == "" || len(cs) == 0 {
		delete(m.due, "pull:"+key)
		return m.startSandbox(p)
	}
	switch waitingReason(cs) {
	case "ContainerCreating", "PodInitializing":
		if m.wait("pull:"+key, m.delay(m.opts.PullDelay, DefaultPullDelay)) {
			return nil
		}
		delete(m.due, "pull:"+key)
		return m.pullAndStart(p)
	case "ErrImagePull":
		if !m.opts.Instant && m.wait("backoff:"+key, m.backOff(key)) {
			return nil
		}
		delete(m.due, "backoff:"+key)
		return m.imageBackOff(p, key)
	case "ImagePullBackOff":
		if m.opts.Instant || m.wait("backoff:"+key, m.backOff(key)) {
			return nil
		}
		delete(m.due, "backoff:"+key)
		m.pullBackOff[key] = min(2*m.backOff(key), imageBackOffMax)
		return m.pullAndStart(p)
	}
	if owner, ok := controllerOf(p); ok && owner.Kind == "Job" && owner.group() == "batch" && str(p, "status", "phase") == "Running" {
		if m.wait("run:"+key, m.delay(m.opts.RunDelay, DefaultRunDelay)) {
			return nil
		}
		delete(m.due, "run:"+key)
		return m.putStatus(p, m.completedStatus(p))
	}
	return nil
}

func (m *Manager) backOff(key string) time.Duration {
	if d, ok := m.pullBackOff[key]; ok {
		return d
	}
	return 20 * m.delay(m.opts.PullDelay, DefaultPullDelay) // 10 s by default, as the kubelet's
}

// waitingReason is the first waiting reason among the statuses.
func waitingReason(cs []any) string {
	for _, c := range cs {
		cm, _ := c.(map[string]any)
		if r := str(cm, "state", "waiting", "reason"); r != "" {
			return r
		}
	}
	return ""
}

func (m *Manager) node(p obj) (string, obj) {
	n := str(p, "spec", "nodeName")
	return n, m.get(kNodes, "", n)
}

// startSandbox is step 1.
func (m *Manager) startSandbox(p obj) error {
	nodeName, node := m.node(p)
	st := podStatusCopy(p)
	if st == nil {
		st = obj{}
	}
	now := m.timestamp()
	host := nodeInternalIP(node)
	ip := m.allocateIP(m.nodeIndex(nodeName))
	st["phase"] = "Pending"
	st["hostIP"], st["hostIPs"] = host, []any{map[string]any{"ip": host}}
	st["podIP"], st["podIPs"] = ip, []any{map[string]any{"ip": ip}}
	st["startTime"] = now
	var names []string
	var cs []any
	for _, c := range list(p, "spec", "containers") {
		cm, _ := c.(map[string]any)
		names = append(names, str(cm, "name"))
		cs = append(cs, waitingStatus(cm, "ContainerCreating", ""))
	}
	st["containerStatuses"] = cs
	if gen := generation(p); gen > 0 {
		st["observedGeneration"] = gen
	}
	initialized := cond{"Initialized", "True", "", ""}
	if inits := list(p, "spec", "initContainers"); len(inits) > 0 {
		var ics []any
		var pending []string
		for _, c := range inits {
			cm, _ := c.(map[string]any)
			pending = append(pending, str(cm, "name"))
			ics = append(ics, waitingStatus(cm, "PodInitializing", ""))
		}
		for _, c := range cs {
			c.(map[string]any)["state"] = map[string]any{"waiting": map[string]any{"reason": "PodInitializing"}}
		}
		st["initContainerStatuses"] = ics
		initialized = cond{"Initialized", "False", "ContainersNotInitialized",
			fmt.Sprintf("containers with incomplete status: [%s]", strings.Join(pending, " "))}
	}
	unready := fmt.Sprintf("containers with unready status: [%s]", strings.Join(names, " "))
	m.setConditions(p, st,
		cond{"PodReadyToStartContainers", "True", "", ""},
		initialized,
		cond{"Ready", "False", "ContainersNotReady", unready},
		cond{"ContainersReady", "False", "ContainersNotReady", unready},
		cond{"PodScheduled", "True", "", ""})
	if err := m.putStatus(p, st); err != nil {
		return err
	}
	for _, c := range list(p, "spec", "containers") {
		cm, _ := c.(map[string]any)
		if m.mustPull(nodeName, cm) {
			m.kubeletEvent(p, nodeName, cm, "Normal", "Pulling", fmt.Sprintf("Pulling image %q", withDefaultTag(str(cm, "image"))))
		}
	}
	return nil
}

// mustPull: the image pull policy asks for a pull (Always, or an image
// this Node has not pulled yet).
func (m *Manager) mustPull(node string, c obj) bool {
	image := withDefaultTag(str(c, "image"))
	return str(c, "imagePullPolicy") == "Always" || failingImage(image) || !m.pulled[node+" "+image]
}

// pullAndStart is step 2 (and the pull after a back-off).
func (m *Manager) pullAndStart(p obj) error {
	nodeName, _ := m.node(p)
	st := podStatusCopy(p)
	now := m.timestamp()
	failed := false
	var cs []any
	var names []string
	for i, c := range list(p, "spec", "containers") {
		cm, _ := c.(map[string]any)
		image := withDefaultTag(str(cm, "image"))
		prev, _ := listAt(st, "containerStatuses", i).(map[string]any)
		if str(prev, "state", "waiting", "reason") == "ImagePullBackOff" {
			m.kubeletEvent(p, nodeName, cm, "Normal", "Pulling", fmt.Sprintf("Pulling image %q", image))
		}
		if failingImage(image) {
			failed = true
			names = append(names, str(cm, "name"))
			why := fmt.Sprintf("rpc error: code = NotFound desc = failed to pull and unpack image %q: failed to resolve reference %q: %s: not found",
				normalizeImage(image), normalizeImage(image), normalizeImage(image))
			m.kubeletEvent(p, nodeName, cm, "Warning", "Failed", fmt.Sprintf("Failed to pull image %q: %s", image, why))
			m.kubeletEvent(p, nodeName, cm, "Warning", "Failed", "Error: ErrImagePull")
			cs = append(cs, waitingStatus(cm, "ErrImagePull", why))
			continue
		}
		if str(prev, "state", "running", "startedAt") != "" {
			cs = append(cs, prev)
			continue
		}
		if m.mustPull(nodeName, cm) {
			took := m.delay(m.opts.PullDelay, DefaultPullDelay).Truncate(time.Millisecond)
			m.kubeletEvent(p, nodeName, cm, "Normal", "Pulled", fmt.Sprintf("Successfully pulled image %q in %v (%v including waiting). Image size: %d bytes.",
				image, took, took, imageSize(image)))
			m.pulled[nodeName+" "+image] = true
		} else { // KubeletEnsureSecretPulledImages (beta, on): an image pulled before without credentials
			m.kubeletEvent(p, nodeName, cm, "Normal", "Pulled", fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", image))
		}
		m.kubeletEvent(p, nodeName, cm, "Normal", "Created", "Container created")
		m.kubeletEvent(p, nodeName, cm, "Normal", "Started", "Container started")
		cs = append(cs, runningStatus(cm, now))
	}
	st["containerStatuses"] = cs
	if inits := list(p, "spec", "initContainers"); len(inits) > 0 {
		var ics []any
		for _, c := range inits {
			cm, _ := c.(map[string]any)
			id := "containerd://" + randomHex(32)
			image := normalizeImage(str(cm, "image"))
			ics = append(ics, map[string]any{"name": str(cm, "name"), "image": image, "imageID": imageID(image),
				"containerID": id, "lastState": map[string]any{}, "ready": true, "restartCount": int64(0), "started": false,
				"state": map[string]any{"terminated": map[string]any{"containerID": id, "exitCode": int64(0),
					"reason": "Completed", "startedAt": now, "finishedAt": now}}})
		}
		st["initContainerStatuses"] = ics
		m.setConditions(p, st, cond{"Initialized", "True", "", ""})
	}
	if failed {
		unready := fmt.Sprintf("containers with unready status: [%s]", strings.Join(names, " "))
		m.setConditions(p, st, cond{"Ready", "False", "ContainersNotReady", unready},
			cond{"ContainersReady", "False", "ContainersNotReady", unready})
		return m.putStatus(p, st)
	}
	st["phase"] = "Running"
	m.setConditions(p, st, cond{"Ready", "True", "", ""}, cond{"ContainersReady", "True", "", ""})
	return m.putStatus(p, st)
}

// imageBackOff: ErrImagePull becomes ImagePullBackOff.
func (m *Manager) imageBackOff(p obj, key string) error {
	nodeName, _ := m.node(p)
	st := podStatusCopy(p)
	var cs []any
	for i, c := range list(p, "spec", "containers") {
		cm, _ := c.(map[string]any)
		prev, _ := listAt(st, "containerStatuses", i).(map[string]any)
		if str(prev, "state", "waiting", "reason") != "ErrImagePull" {
			cs = append(cs, prev)
			continue
		}
		image := withDefaultTag(str(cm, "image"))
		msg := fmt.Sprintf("Back-off pulling image %q", image)
		m.kubeletEvent(p, nodeName, cm, "Normal", "BackOff", msg)
		m.kubeletEvent(p, nodeName, cm, "Warning", "Failed", "Error: ImagePullBackOff")
		cs = append(cs, waitingStatus(cm, "ImagePullBackOff", msg+": ErrImagePull: "+str(prev, "state", "waiting", "message")))
	}
	st["containerStatuses"] = cs
	return m.putStatus(p, st)
}

// completedStatus is step 3: every container exited 0.
func (m *Manager) completedStatus(p obj) obj {
	st := podStatusCopy(p)
	now := m.timestamp()
	var cs []any
	for i := range list(p, "spec", "containers") {
		prev, _ := listAt(st, "containerStatuses", i).(map[string]any)
		c := copyObj(prev)
		id := str(c, "containerID")
		c["state"] = map[string]any{"terminated": map[string]any{"containerID": id, "exitCode": int64(0),
			"reason": "Completed", "startedAt": str(prev, "state", "running", "startedAt"), "finishedAt": now}}
		c["ready"], c["started"] = false, false
		cs = append(cs, c)
	}
	st["containerStatuses"] = cs
	st["phase"] = "Succeeded"
	m.setConditions(p, st, cond{"PodReadyToStartContainers", "False", "", ""},
		cond{"Ready", "False", "PodCompleted", ""}, cond{"ContainersReady", "False", "PodCompleted", ""})
	return st
}

// killPod: Killing, then the kubelet's final DELETE.
func (m *Manager) killPod(p obj, key string) error {
	if _, done := m.due["killed:"+uid(p)]; done {
		return nil // deleted already; finalizers hold it
	}
	if _, seen := m.due["kill:"+key]; !seen {
		nodeName, _ := m.node(p)
		for i, c := range list(p, "spec", "containers") {
			cm, _ := c.(map[string]any)
			if s, _ := listAt(child(p, "status"), "containerStatuses", i).(map[string]any); child(s, "state", "running") != nil {
				m.kubeletEvent(p, nodeName, cm, "Normal", "Killing", "Stopping container "+str(cm, "name"))
			}
		}
	}
	if m.wait("kill:"+key, m.delay(m.opts.KillDelay, DefaultKillDelay)) {
		return nil
	}
	delete(m.due, "kill:"+key)
	delete(m.pullBackOff, key)
	for _, k := range []string{"pull:", "run:", "backoff:"} {
		delete(m.due, k+key)
	}
	owner, _ := controllerOf(p)
	if !terminal(p) && allRunning(p) && owner.Kind != "Job" { // stopped: every container exited 0, the Pod is terminal
		// (not a Job's: its controller would count a Succeeded Pod as a completion)
		if err := m.putStatus(p, m.completedStatus(p)); err != nil {
			return err
		}
	}
	zero := int64(0)
	opts := obj{"apiVersion": "v1", "kind": "DeleteOptions", "gracePeriodSeconds": zero,
		"preconditions": map[string]any{"uid": uid(p)}}
	_, err := m.kubelet.do(m.ctx, http.MethodDelete, kPods.path(namespace(p), name(p), ""), ctJSON, opts)
	if err == nil && len(finalizers(p)) > 0 {
		m.due["killed:"+uid(p)] = time.Time{} // stays until its finalizers go
	}
	if isCode(err, http.StatusConflict) {
		return nil // a new pod of that name
	}
	return ignoreNotFound(err)
}

func (m *Manager) putStatus(p, st obj) error {
	n := copyObj(p)
	n["status"] = st
	n["apiVersion"], n["kind"] = "v1", "Pod"
	_, err := m.kubelet.do(m.ctx, http.MethodPut, kPods.path(namespace(p), name(p), "status"), ctJSON, n)
	return ignoreNotFound(err)
}

type cond struct{ typ, status, reason, message string }

// setConditions sets pod conditions in the kubelet's order, keeping the
// transition time of those whose status does not change.
func (m *Manager) setConditions(p, st obj, cs ...cond) {
	now := m.timestamp()
	cur := map[string]obj{}
	for _, c := range list(st, "conditions") {
		if cm, ok := c.(map[string]any); ok {
			cur[str(cm, "type")] = cm
		}
	}
	for _, c := range cs {
		n := map[string]any{"type": c.typ, "status": c.status, "lastProbeTime": nil, "lastTransitionTime": now}
		if old := cur[c.typ]; old != nil && str(old, "status") == c.status {
			n["lastTransitionTime"] = old["lastTransitionTime"]
		}
		if gen := generation(p); gen > 0 && c.typ != "PodScheduled" {
			n["observedGeneration"] = gen
		}
		if c.reason != "" {
			n["reason"] = c.reason
		}
		if c.message != "" {
			n["message"] = c.message
		}
		cur[c.typ] = n
	}
	var out []any
	for _, t := range []string{"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"} {
		if c := cur[t]; c != nil {
			out = append(out, c)
			delete(cur, t)
		}
	}
	for _, c := range list(st, "conditions") { // others (readiness gates ...) keep their place at the end
		if cm, ok := c.(map[string]any); ok && cur[str(cm, "type")] != nil {
			out = append(out, cm)
		}
	}
	st["conditions"] = out
}

func waitingStatus(c obj, reason, message string) map[string]any {
	w := map[string]any{"reason": reason}
	if message != "" {
		w["message"] = message
	}
	return map[string]any{"name": str(c, "name"), "image": str(c, "image"), "imageID": "", "lastState": map[string]any{},
		"ready": false, "restartCount": int64(0), "started": false, "state": map[string]any{"waiting": w}}
}

func runningStatus(c obj, now string) map[string]any {
	image := normalizeImage(str(c, "image"))
	return map[string]any{"name": str(c, "name"), "image": image, "imageID": imageID(image),
		"containerID": "containerd://" + randomHex(32), "lastState": map[string]any{}, "ready": true,
		"restartCount": int64(0), "started": true, "state": map[string]any{"running": map[string]any{"startedAt": now}}}
}

// failingImage: the tag "fail" names an image no registry has.
func failingImage(image string) bool {
	last := image[strings.LastIndexByte(image, '/')+1:]
	_, tag, ok := strings.Cut(last, ":")
	return ok && tag == "fail"
}

// imageSize is a stable stand-in for the size of the pulled image.
func imageSize(image string) int64 {
	h := sha(image)
	var n int64
	for _, b := range h[:6] {
		n = n*16 + int64(strings.IndexRune("0123456789abcdef", b))
	}
	return 10_000_000 + n%90_000_000
}

func listAt(o obj, k string, i int) any {
	l := list(o, k)
	if i < len(l) {
		return l[i]
	}
	return nil
}

// allocateIP hands out 10.244.<node>.2, .3, … from the Node's pod CIDR,
// skipping the addresses of the Pods stored (a restored state).
func (m *Manager) allocateIP(node int) string {
	if m.nextIP == nil {
		m.nextIP = map[int]int{}
	}
	used := map[string]bool{}
	for _, s := range m.listKind(kPods, "", []byte(`"podIP"`)) {
		used[str(s.o, "status", "podIP")] = true
	}
	for i := 0; ; i++ {
		n := m.nextIP[node]
		m.nextIP[node]++
		ip := fmt.Sprintf("10.244.%d.%d", node, n%250+2)
		if !used[ip] || i >= 250 {
			return ip
		}
	}
}

func podStatusCopy(p obj) obj {
	if st := copyObj(child(p, "status")); st != nil {
		return st
	}
	return obj{}
}

func allRunning(p obj) bool {
	cs := list(p, "status", "containerStatuses")
	for _, c := range cs {
		cm, _ := c.(map[string]any)
		if child(cm, "state", "running") == nil {
			return false
		}
	}
	return len(cs) > 0
}
