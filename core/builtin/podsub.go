package builtin

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/resource"
	"github.com/kubesandbox/kubesandbox/core/validation"
)

// A Pod's own subresources, as kube-apiserver v1.37.2 answers them
// (pkg/registry/core/pod/storage, pkg/registry/core/pod/rest):
//
//   - binding (POST a v1 Binding): sets spec.nodeName and the
//     PodScheduled=True condition in one storage update (no validation,
//     no managedFields entry, as BindingREST's GuaranteedUpdate) and answers
//     201 {"kind":"Status","status":"Success","code":201}. A pod already
//     bound answers 409 `Operation cannot be fulfilled on pods/binding
//     "web": pod web is already assigned to node "sandbox-worker"`.
//   - log (GET): no container ever runs here. A pod without a node answers
//     200 with an empty body (an empty location, as LogLocation); a
//     container that is not running answers 400 with the kubelet's text
//     (`container "web" in pod "web-1" is waiting to start:
//     ContainerCreating`); a running or terminated container answers one
//     simulated line, e.g.
//     `kubesandbox: container "web" (docker.io/library/nginx:1.27) has no process here; no log lines were written`.
//   - exec, attach, portforward: the node and container checks of
//     streamLocation (`pod web does not have a host assigned`, 400), then
//     400 `Upgrade request required` for a request without upgrade headers
//     (the upgrade-aware proxy's answer) and, for an upgrade, 400 saying no
//     container runtime exists to stream from.
var podSubresources = []resource.Subresource{
	{Name: "attach", Kind: "PodAttachOptions", Verbs: []string{"create", "get"}, Serve: podStream},
	{Name: "binding", Kind: "Binding", Def: "io.k8s.api.core.v1.Binding", Verbs: []string{"create"}, Serve: podBinding},
	podEviction,
	{Name: "exec", Kind: "PodExecOptions", Verbs: []string{"create", "get"}, Serve: podStream},
	{Name: "log", Kind: "Pod", Verbs: []string{"get"}, Serve: podLog},
	{Name: "portforward", Kind: "PodPortForwardOptions", Verbs: []string{"create", "get"}, Serve: podStream},
}

var podsBinding = apierr.GR{Resource: "pods/binding"}
var podsGR = apierr.GR{Resource: "pods"}

func podBinding(r *resource.SubRequest) (resource.SubAnswer, error) {
	b, err := jsonx.DecodeObject(r.Body)
	if err != nil {
		return resource.SubAnswer{}, apierr.BadRequestf("the object provided is unrecognized (must be of type Binding): %v", err)
	}
	podName := str(child(r.Obj, "metadata"), "name")
	bm := child(b, "metadata")
	if str(bm, "name") != podName {
		return resource.SubAnswer{}, apierr.BadRequest("name in URL does not match name in Binding object")
	}
	target := child(b, "target")
	var errs field.ErrorList
	if k := str(target, "kind"); k != "" && k != "Node" {
		errs = append(errs, field.NotSupported(field.NewPath("target", "kind"), k, []string{"Node", "<empty>"}))
	}
	node := str(target, "name")
	if node == "" {
		errs = append(errs, field.Required(field.NewPath("target", "name"), ""))
	} else if str(target, "kind") == "" || str(target, "kind") == "Node" {
		for _, msg := range validation.NameIsDNSSubdomain(node, false) {
			errs = append(errs, field.Invalid(field.NewPath("target", "name"), node, msg))
		}
	}
	if len(errs) > 0 { // errs.ToAggregate(), not a Status: answered as unknown
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		msg := msgs[0]
		if len(msgs) > 1 {
			msg = "[" + strings.Join(msgs, ", ") + "]"
		}
		return resource.SubAnswer{}, apierr.Unknown(msg)
	}
	_, err = r.Update(func(pod resource.Object) error { return bindPod(pod, b, node, r.Now) })
	if err != nil {
		return resource.SubAnswer{}, err
	}
	return resource.SubAnswer{Code: http.StatusCreated, Obj: resource.Object{"kind": "Status", "apiVersion": "v1",
		"metadata": map[string]any{}, "status": "Success", "code": int64(http.StatusCreated)}}, nil
}

// bindPod is setPodNodeAndMetadata: preconditions from the Binding's uid
// and resourceVersion, then spec.nodeName, the Binding's annotations and
// the PodScheduled condition (UpdatePodCondition: a changed status gets a
// new lastTransitionTime, reason and message are replaced).
func bindPod(pod, b resource.Object, node, now string) error {
	m := child(pod, "metadata")
	name := str(m, "name")
	bm := child(b, "metadata")
	if u := str(bm, "uid"); u != "" && u != str(m, "uid") {
		return apierr.Conflict(podsGR, name, fmt.Sprintf("Precondition failed: UID in precondition: %v, UID in object meta: %v", u, str(m, "uid")))
	}
	if v := str(bm, "resourceVersion"); v != "" && v != str(m, "resourceVersion") {
		return apierr.Conflict(podsGR, name, fmt.Sprintf("Precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", v, str(m, "resourceVersion")))
	}
	spec := ensure(pod, "spec")
	switch {
	case str(m, "deletionTimestamp") != "":
		return apierr.Conflict(podsBinding, name, fmt.Sprintf("pod %s is being deleted, cannot be assigned to a host", name))
	case str(spec, "nodeName") != "":
		return apierr.Conflict(podsBinding, name, fmt.Sprintf("pod %v is already assigned to node %q", name, str(spec, "nodeName")))
	case len(items(spec, "schedulingGates")) != 0:
		return apierr.Conflict(podsBinding, name, fmt.Sprintf("pod %v has non-empty .spec.schedulingGates", name))
	}
	spec["nodeName"] = node
	if st := child(pod, "status"); st != nil {
		delete(st, "nominatedNodeName")
	}
	if anns := child(bm, "annotations"); len(anns) > 0 {
		a := ensure(m, "annotations")
		for k, v := range anns {
			a[k] = v
		}
	}
	st := ensure(pod, "status")
	conds, _ := st["conditions"].([]any)
	cond := map[string]any{"type": "PodScheduled", "status": "True", "lastProbeTime": nil, "lastTransitionTime": now}
	for i, c := range conds {
		cm, _ := c.(map[string]any)
		if str(cm, "type") != "PodScheduled" {
			continue
		}
		if str(cm, "status") == "True" {
			cond["lastTransitionTime"] = cm["lastTransitionTime"]
		}
		conds[i] = cond
		return nil
	}
	st["conditions"] = append(conds, cond)
	return nil
}

// containerName is validateContainer: the named container must exist,
// none named is the only one.
func containerName(pod resource.Object, r *resource.SubRequest) (string, error) {
	name := str(child(pod, "metadata"), "name")
	want := r.Query.Get("container")
	spec := child(pod, "spec")
	var names []string
	for _, k := range []string{"initContainers", "containers", "ephemeralContainers"} {
		for _, c := range items(spec, k) {
			names = append(names, str(c, "name"))
		}
	}
	if want == "" {
		cs := items(spec, "containers")
		switch len(cs) {
		case 1:
			return str(cs[0], "name"), nil
		case 0:
			return "", apierr.BadRequest(fmt.Sprintf("a container name must be specified for pod %s", name))
		}
		return "", apierr.BadRequest(fmt.Sprintf("a container name must be specified for pod %s, choose one of: [%s]", name, strings.Join(names, " ")))
	}
	for _, n := range names {
		if n == want {
			return want, nil
		}
	}
	return "", apierr.BadRequest(fmt.Sprintf("container %s is not valid for pod %s", want, name))
}

func podLog(r *resource.SubRequest) (resource.SubAnswer, error) {
	c, err := containerName(r.Obj, r)
	if err != nil {
		return resource.SubAnswer{}, err
	}
	if str(child(r.Obj, "spec"), "nodeName") == "" {
		return resource.SubAnswer{Code: http.StatusOK, Text: []byte{}}, nil
	}
	pod := str(child(r.Obj, "metadata"), "name")
	var cs map[string]any
	for _, k := range []string{"containerStatuses", "initContainerStatuses", "ephemeralContainerStatuses"} {
		for _, s := range items(child(r.Obj, "status"), k) {
			if cs == nil && str(s, "name") == c {
				cs = s
			}
		}
	}
	if cs == nil {
		return resource.SubAnswer{}, apierr.BadRequest(fmt.Sprintf("container %q in pod %q is not available", c, pod))
	}
	state := child(cs, "state")
	previous := r.Query.Get("previous") == "true"
	switch {
	case previous:
		return resource.SubAnswer{}, apierr.BadRequest(fmt.Sprintf("previous terminated container %q in pod %q not found", c, pod))
	case child(state, "running") != nil, child(state, "terminated") != nil:
		line := fmt.Sprintf("kubesandbox: container %q (%s) has no process here; no log lines were written\n", c, str(cs, "image"))
		return resource.SubAnswer{Code: http.StatusOK, Text: []byte(line)}, nil
	case child(state, "waiting") != nil:
		switch reason := str(child(state, "waiting"), "reason"); reason {
		case "ErrImagePull":
			return resource.SubAnswer{}, apierr.BadRequest(fmt.Sprintf("container %q in pod %q is waiting to start: image can't be pulled", c, pod))
		case "ImagePullBackOff":
			return resource.SubAnswer{}, apierr.BadRequest(fmt.Sprintf("container %q in pod %q is waiting to start: trying and failing to pull image", c, pod))
		default:
			return resource.SubAnswer{}, apierr.BadRequest(fmt.Sprintf("container %q in pod %q is waiting to start: %v", c, pod, reason))
		}
	}
	return resource.SubAnswer{}, apierr.BadRequest(fmt.Sprintf("container %q in pod %q is waiting to start - no logs yet", c, pod))
}

// podStream answers exec, attach and portforward: no stream can be opened.
func podStream(r *resource.SubRequest) (resource.SubAnswer, error) {
	pod := str(child(r.Obj, "metadata"), "name")
	if r.Sub != "portforward" {
		if _, err := containerName(r.Obj, r); err != nil {
			return resource.SubAnswer{}, err
		}
	}
	if str(child(r.Obj, "spec"), "nodeName") == "" {
		return resource.SubAnswer{}, apierr.BadRequest(fmt.Sprintf("pod %s does not have a host assigned", pod))
	}
	if !strings.EqualFold(r.Header.Get("Connection"), "upgrade") && r.Header.Get("Upgrade") == "" {
		return resource.SubAnswer{}, apierr.BadRequest("Upgrade request required")
	}
	return resource.SubAnswer{}, apierr.BadRequest(fmt.Sprintf("pod %s: kubesandbox runs no containers, so there is no stream to exec, attach or port-forward to", pod))
}
