package builtin

import "strings"

// Pod defaulting, ported from k8s.io/kubernetes pkg/apis/core/v1/defaults.go
// (SetDefaults_Pod, SetDefaults_PodSpec, SetDefaults_Container, ...) and
// the generated SetObjectDefaults_Pod that walks the nested types.
//
// Defaults for pod templates (deployments, jobs, ...) are the PodSpec ones
// only: SetDefaults_Pod (enableServiceLinks, requests from limits,
// host ports) runs for Pod objects alone, as in the real server.

// defaultPod is the Hooks.Default of pods.
//
// Example: {"spec":{"containers":[{"name":"c","image":"nginx"}]}} gains
// spec.restartPolicy "Always", dnsPolicy "ClusterFirst", schedulerName
// "default-scheduler", securityContext {}, terminationGracePeriodSeconds 30,
// enableServiceLinks true, and the container gains imagePullPolicy
// "Always" (no tag means :latest), terminationMessagePath
// "/dev/termination-log", terminationMessagePolicy "File", resources {}.
func defaultPod(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	// SetDefaults_Pod (not PodSpec): a negative grace period becomes 1
	if g, ok := num(spec, "terminationGracePeriodSeconds"); ok && g < 0 {
		spec["terminationGracePeriodSeconds"] = int64(1)
	}
	defaultPodSpec(spec)
	for _, c := range items(spec, "containers") {
		requestsFromLimits(c)
	}
	for _, c := range items(spec, "initContainers") {
		requestsFromLimits(c)
	}
	setPtr(spec, "enableServiceLinks", true)
	if b, _ := spec["hostNetwork"].(bool); b {
		for _, key := range []string{"containers", "initContainers"} {
			for _, c := range items(spec, key) {
				for _, p := range items(c, "ports") {
					if hp, _ := num(p, "hostPort"); hp == 0 {
						if cp, ok := num(p, "containerPort"); ok {
							p["hostPort"] = cp
						}
					}
				}
			}
		}
	}
}

// requestsFromLimits copies each limit without a request into requests.
func requestsFromLimits(c map[string]any) {
	res := child(c, "resources")
	limits := child(res, "limits")
	if limits == nil {
		return
	}
	req := ensure(res, "requests")
	if req == nil {
		return
	}
	for k, v := range limits {
		if _, ok := req[k]; !ok {
			req[k] = v
		}
	}
}

// defaultPodSpec applies SetDefaults_PodSpec and the defaults of every
// type nested in a PodSpec.
func defaultPodSpec(spec map[string]any) {
	dropEmptyLists(spec, "containers")
	for _, key := range []string{"containers", "initContainers", "ephemeralContainers"} {
		for _, c := range items(spec, key) {
			dropEmptyLists(c)
		}
	}
	setStr(spec, "dnsPolicy", "ClusterFirst")
	setStr(spec, "restartPolicy", "Always")
	setPtr(spec, "securityContext", map[string]any{})
	setPtr(spec, "terminationGracePeriodSeconds", int64(30))
	setStr(spec, "schedulerName", "default-scheduler")
	// v1 conversion keeps the deprecated serviceAccount in step with
	// serviceAccountName (the latter wins when both are set).
	if sa := str(spec, "serviceAccountName"); sa != "" {
		spec["serviceAccount"] = sa
	} else if sa := str(spec, "serviceAccount"); sa != "" {
		spec["serviceAccountName"] = sa
	}
	for _, key := range []string{"containers", "initContainers", "ephemeralContainers"} {
		for _, c := range items(spec, key) {
			defaultContainer(c)
		}
	}
	for _, v := range items(spec, "volumes") {
		defaultVolume(v)
	}
}

// defaultContainer applies SetDefaults_Container and the nested defaults
// (ports, probes, lifecycle handlers, env field references).
func defaultContainer(c map[string]any) {
	if absentOrEmpty(c, "imagePullPolicy") {
		if imageTag(str(c, "image")) == "latest" {
			c["imagePullPolicy"] = "Always"
		} else {
			c["imagePullPolicy"] = "IfNotPresent"
		}
	}
	setStr(c, "terminationMessagePath", "/dev/termination-log")
	setStr(c, "terminationMessagePolicy", "File")
	setPtr(c, "resources", map[string]any{}) // a Go struct: always serialised
	for _, p := range items(c, "ports") {
		setStr(p, "protocol", "TCP")
	}
	for _, key := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		if p := child(c, key); p != nil {
			defaultProbe(p)
		}
	}
	if lc := child(c, "lifecycle"); lc != nil {
		for _, key := range []string{"postStart", "preStop"} {
			defaultHandler(child(lc, key))
		}
	}
	for _, e := range items(c, "env") {
		defaultFieldRef(child(child(e, "valueFrom"), "fieldRef"))
		defaultResourceFieldRef(child(child(e, "valueFrom"), "resourceFieldRef"))
	}
}

// defaultResourceFieldRef writes the divisor a ResourceFieldSelector's Go
// type always serialises: a non-pointer Quantity, "0" when unset.
func defaultResourceFieldRef(f map[string]any) {
	setPtr(f, "divisor", "0")
}

func absentOrEmpty(m map[string]any, key string) bool {
	s, ok := m[key].(string)
	return m[key] == nil || (ok && s == "")
}

// defaultProbe is SetDefaults_Probe plus the handler defaults.
func defaultProbe(p map[string]any) {
	for _, d := range []struct {
		key string
		v   int64
	}{{"timeoutSeconds", 1}, {"periodSeconds", 10}, {"successThreshold", 1}, {"failureThreshold", 3}} {
		if n, isNum := num(p, d.key); p[d.key] == nil || (isNum && n == 0) {
			p[d.key] = d.v
		}
	}
	defaultHandler(p)
	if g := child(p, "grpc"); g != nil {
		setPtr(g, "service", "") // +default=""
	}
}

// defaultHandler defaults the httpGet action of a probe or lifecycle hook.
func defaultHandler(h map[string]any) {
	if g := child(h, "httpGet"); g != nil {
		setStr(g, "path", "/")
		setStr(g, "scheme", "HTTP")
	}
}

func defaultFieldRef(f map[string]any) {
	if f != nil {
		setStr(f, "apiVersion", "v1")
	}
}

// volumeSourceKeys are the members of a VolumeSource: a volume that names
// none of them becomes an emptyDir.
var volumeSourceKeys = []string{
	"hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret", "nfs", "iscsi",
	"glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "downwardAPI", "fc",
	"azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "projected",
	"portworxVolume", "scaleIO", "storageos", "csi", "ephemeral", "image",
}

// defaultVolume applies SetDefaults_Volume and the volume source defaults.
func defaultVolume(v map[string]any) {
	found := false
	for _, k := range volumeSourceKeys {
		if v[k] != nil {
			found = true
			break
		}
	}
	if !found {
		v["emptyDir"] = map[string]any{}
	}
	for _, k := range []string{"secret", "configMap"} {
		if s := child(v, k); s != nil {
			setPtr(s, "defaultMode", int64(420)) // 0644
		}
	}
	if d := child(v, "downwardAPI"); d != nil {
		setPtr(d, "defaultMode", int64(420))
		for _, it := range items(d, "items") {
			defaultFieldRef(child(it, "fieldRef"))
			defaultResourceFieldRef(child(it, "resourceFieldRef"))
		}
	}
	if p := child(v, "projected"); p != nil {
		setPtr(p, "defaultMode", int64(420))
		for _, src := range items(p, "sources") {
			if t := child(src, "serviceAccountToken"); t != nil {
				setPtr(t, "expirationSeconds", int64(3600))
			}
			for _, it := range items(child(src, "downwardAPI"), "items") {
				defaultFieldRef(child(it, "fieldRef"))
				defaultResourceFieldRef(child(it, "resourceFieldRef"))
			}
		}
	}
	defaultVolumeSources(v)
	if e := child(child(child(v, "ephemeral"), "volumeClaimTemplate"), "spec"); e != nil {
		setPtr(e, "volumeMode", "Filesystem")
	}
}

// defaultVolumeSources applies the defaults of the sources a Pod's volume
// and a PersistentVolume's spec share (SetObjectDefaults_PersistentVolume
// runs the same ones): hostPath's type, iscsi, rbd, azureDisk, scaleIO.
func defaultVolumeSources(v map[string]any) {
	if h := child(v, "hostPath"); h != nil {
		setPtr(h, "type", "")
	}
	if i := child(v, "iscsi"); i != nil {
		setStr(i, "iscsiInterface", "default")
	}
	if r := child(v, "rbd"); r != nil {
		setStr(r, "pool", "rbd")
		setStr(r, "user", "admin")
		setStr(r, "keyring", "/etc/ceph/keyring")
	}
	if a := child(v, "azureDisk"); a != nil {
		setPtr(a, "cachingMode", "ReadWrite")
		setPtr(a, "kind", "Shared")
		setPtr(a, "fsType", "ext4")
		setPtr(a, "readOnly", false)
	}
	if s := child(v, "scaleIO"); s != nil {
		setStr(s, "storageMode", "ThinProvisioned")
		setStr(s, "fsType", "xfs")
	}
}

// imageTag returns the tag the real server's parsers.ParseImageName finds:
// "latest" when the reference has neither tag nor digest, "" when it has
// only a digest (or cannot be parsed), the tag otherwise.
//
//	nginx               -> latest
//	nginx:1.27          -> 1.27
//	localhost:5000/app  -> latest  (the colon belongs to the registry host)
//	nginx@sha256:abc... -> ""
func imageTag(image string) string {
	if image == "" || strings.ContainsAny(image, " \t\n") || image != strings.TrimSpace(image) {
		return ""
	}
	name := image
	digest := false
	if i := strings.IndexByte(name, '@'); i >= 0 {
		name, digest = name[:i], true
	}
	tag := ""
	if i := strings.LastIndexByte(name, ':'); i >= 0 && !strings.Contains(name[i+1:], "/") {
		name, tag = name[:i], name[i+1:]
	}
	if name == "" || strings.ToLower(lastPath(name)) != lastPath(name) {
		return "" // repository names are lower case: a parse error
	}
	if tag == "" && !digest {
		return "latest"
	}
	return tag
}

// lastPath is the path of a reference after its registry host, if any.
func lastPath(name string) string {
	if i := strings.IndexByte(name, '/'); i >= 0 {
		host := name[:i]
		if strings.ContainsAny(host, ".:") || host == "localhost" || strings.ToLower(host) != host {
			return name[i+1:]
		}
	}
	return name
}

// dropEmptyLists removes the empty lists of m but those of keep: a typed
// round trip writes nothing for an empty omitempty slice (every list of a
// PodSpec and a Container but spec.containers), so `volumes: []`, or the
// list a strategic merge patch's $patch: delete emptied, is not stored.
func dropEmptyLists(m map[string]any, keep ...string) {
	for k, v := range m {
		if l, ok := v.([]any); ok && len(l) == 0 {
			kept := false
			for _, x := range keep {
				kept = kept || x == k
			}
			if !kept {
				delete(m, k)
			}
		}
	}
}

// dropDisabledPodFields is the part of DropDisabledPodFields the sandbox
// needs: the EmptyDirVolumeMode gate is off (alpha in v1.37), so an
// emptyDir's mode is dropped. The pod strategy's PrepareForCreate does it
// after the field manager ran (managedFields keep f:mode, as kube's do).
func dropDisabledPodFields(spec map[string]any) {
	for _, v := range items(spec, "volumes") {
		delete(child(v, "emptyDir"), "mode")
	}
}
