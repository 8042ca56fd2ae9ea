package builtin

import (
	"reflect"
	"strconv"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// Defaulting of the apps/v1 and batch/v1 kinds, ported from
// k8s.io/kubernetes pkg/apis/apps/v1/defaults.go and
// pkg/apis/batch/v1/defaults.go. Their pod templates get the PodSpec
// defaults (not the Pod-only ones), as the generated defaulters do.

// defaultTemplate defaults spec.template (a PodTemplateSpec).
func defaultTemplate(spec map[string]any) {
	if t := child(spec, "template"); t != nil {
		if ps := child(t, "spec"); ps != nil {
			defaultPodSpec(ps)
		}
	}
}

// defaultDeployment: SetDefaults_Deployment.
//
// Example: {"spec":{"template":...}} gains replicas 1, strategy
// {type: RollingUpdate, rollingUpdate: {maxUnavailable: "25%", maxSurge:
// "25%"}}, revisionHistoryLimit 10 and progressDeadlineSeconds 600.
func defaultDeployment(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setPtr(spec, "replicas", int64(1))
	if strategy := ensure(spec, "strategy"); strategy != nil {
		setStr(strategy, "type", "RollingUpdate")
		if str(strategy, "type") == "RollingUpdate" {
			if ru := ensure(strategy, "rollingUpdate"); ru != nil {
				setPtr(ru, "maxUnavailable", "25%")
				setPtr(ru, "maxSurge", "25%")
			}
		}
	}
	setPtr(spec, "revisionHistoryLimit", int64(10))
	setPtr(spec, "progressDeadlineSeconds", int64(600))
	defaultTemplate(spec)
}

// defaultReplicaSet: SetDefaults_ReplicaSet.
func defaultReplicaSet(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setPtr(spec, "replicas", int64(1))
	defaultTemplate(spec)
}

// defaultReplicationController: SetDefaults_ReplicationController, then
// replicas 1 and the template's pod spec. An empty selector, and empty
// object labels, become the template's labels.
//
// Example: {"spec":{"template":{"metadata":{"labels":{"app":"web"}},...}}}
// gains metadata.labels {"app":"web"}, spec.selector {"app":"web"} and
// spec.replicas 1.
func defaultReplicationController(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	if labels := child(child(child(spec, "template"), "metadata"), "labels"); labels != nil {
		if len(child(spec, "selector")) == 0 {
			spec["selector"] = jsonx.CopyObject(labels)
		}
		if md := ensure(obj, "metadata"); md != nil && len(child(md, "labels")) == 0 {
			md["labels"] = jsonx.CopyObject(labels)
		}
	}
	setPtr(spec, "replicas", int64(1))
	// minReadySeconds is +default=0 and omitempty: the published schema's
	// default 0 is never written
	if n, ok := jsonx.Int64(spec["minReadySeconds"]); ok && n == 0 {
		delete(spec, "minReadySeconds")
	}
	defaultTemplate(spec)
}

// defaultStatefulSet: SetDefaults_StatefulSet (MaxUnavailableStatefulSet
// off: no rollingUpdate.maxUnavailable default).
func defaultStatefulSet(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setStr(spec, "podManagementPolicy", "OrderedReady")
	if us := ensure(spec, "updateStrategy"); us != nil {
		if absentOrEmpty(us, "type") {
			us["type"] = "RollingUpdate"
			ensure(us, "rollingUpdate")
		}
		if str(us, "type") == "RollingUpdate" {
			if ru := child(us, "rollingUpdate"); ru != nil {
				setPtr(ru, "partition", int64(0))
				// MaxUnavailableStatefulSet (beta, on by default in v1.37)
				setPtr(ru, "maxUnavailable", int64(1))
			}
		}
	}
	if p := ensure(spec, "persistentVolumeClaimRetentionPolicy"); p != nil {
		setStr(p, "whenDeleted", "Retain")
		setStr(p, "whenScaled", "Retain")
	}
	setPtr(spec, "replicas", int64(1))
	setPtr(spec, "revisionHistoryLimit", int64(10))
	for _, pvc := range items(spec, "volumeClaimTemplates") {
		if s := ensure(pvc, "spec"); s != nil {
			setPtr(s, "volumeMode", "Filesystem")
		}
		setStr(ensure(pvc, "status"), "phase", "Pending")
		// Convert_apps_StatefulSetSpec_To_v1_StatefulSetSpec writes these
		// into every template it serves (issue 87583)
		pvc["apiVersion"], pvc["kind"] = "v1", "PersistentVolumeClaim"
	}
	defaultTemplate(spec)
}

// defaultDaemonSet: SetDefaults_DaemonSet.
func defaultDaemonSet(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	if us := ensure(spec, "updateStrategy"); us != nil {
		setStr(us, "type", "RollingUpdate")
		if str(us, "type") == "RollingUpdate" {
			if ru := ensure(us, "rollingUpdate"); ru != nil {
				setPtr(ru, "maxUnavailable", int64(1))
				setPtr(ru, "maxSurge", int64(0))
			}
		}
	}
	setPtr(spec, "revisionHistoryLimit", int64(10))
	defaultTemplate(spec)
	// The v1 conversion always writes spec.templateGeneration (internal)
	// as this annotation, so the writer's managedFields own it; the
	// strategy sets its value (prepareDaemonSetCreate/Update).
	if ann := ensure(ensure(obj, "metadata"), "annotations"); ann != nil {
		if _, ok := ann[dsTemplateGeneration]; !ok {
			ann[dsTemplateGeneration] = "0"
		}
	}
}

const dsTemplateGeneration = "deprecated.daemonset.template.generation"

// daemonSetTableMetadata: the internal DaemonSet the printer sees holds
// the template generation as spec.templateGeneration, so a Table row's
// metadata shows no such annotation (nor an emptied annotations map).
func daemonSetTableMetadata(meta map[string]any) map[string]any {
	if ann := child(meta, "annotations"); ann != nil {
		delete(ann, dsTemplateGeneration)
		if len(ann) == 0 {
			delete(meta, "annotations")
		}
	}
	return meta
}

// prepareDaemonSetCreate: the daemonset strategy's PrepareForCreate keeps a
// templateGeneration of at least 1.
func prepareDaemonSetCreate(obj map[string]any) {
	ann := child(child(obj, "metadata"), "annotations")
	if ann == nil {
		return
	}
	if n, err := strconv.ParseInt(str(ann, dsTemplateGeneration), 10, 64); err != nil || n < 1 {
		ann[dsTemplateGeneration] = "1"
	}
}

// prepareDaemonSetUpdate: clients cannot set templateGeneration; it is the
// old one, plus 1 when spec.template changed (PrepareForUpdate).
func prepareDaemonSetUpdate(obj, old map[string]any) {
	ann := ensure(ensure(obj, "metadata"), "annotations")
	if ann == nil {
		return
	}
	gen, err := strconv.ParseInt(str(child(child(old, "metadata"), "annotations"), dsTemplateGeneration), 10, 64)
	if err != nil {
		gen = 1
	}
	if !reflect.DeepEqual(child(child(obj, "spec"), "template"), child(child(old, "spec"), "template")) {
		gen++
	}
	ann[dsTemplateGeneration] = strconv.FormatInt(gen, 10)
}

// defaultJob: SetDefaults_Job. The selector and the controller-uid labels
// the job strategy generates from the uid are not set here.
func defaultJob(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	if spec["completions"] == nil && spec["parallelism"] == nil {
		spec["completions"] = int64(1)
		spec["parallelism"] = int64(1)
	}
	setPtr(spec, "parallelism", int64(1))
	if spec["backoffLimit"] == nil {
		if spec["backoffLimitPerIndex"] != nil {
			spec["backoffLimit"] = int64(2147483647)
		} else {
			spec["backoffLimit"] = int64(6)
		}
	}
	// The job's labels default to its template's.
	if tl := child(child(child(spec, "template"), "metadata"), "labels"); tl != nil {
		if meta := ensure(obj, "metadata"); meta != nil && len(child(meta, "labels")) == 0 {
			if _, ok := meta["labels"].(map[string]any); ok || meta["labels"] == nil {
				cp := make(map[string]any, len(tl))
				for k, v := range tl {
					cp[k] = v
				}
				meta["labels"] = cp
			}
		}
	}
	setPtr(spec, "completionMode", "NonIndexed")
	setPtr(spec, "suspend", false)
	if pfp := child(spec, "podFailurePolicy"); pfp != nil {
		for _, rule := range items(pfp, "rules") {
			for _, pat := range items(rule, "onPodConditions") {
				setStr(pat, "status", "True")
			}
		}
	}
	if spec["podReplacementPolicy"] == nil {
		if spec["podFailurePolicy"] != nil {
			spec["podReplacementPolicy"] = "Failed"
		} else {
			spec["podReplacementPolicy"] = "TerminatingOrFailed"
		}
	}
	setPtr(spec, "manualSelector", false)
	defaultTemplate(spec)
}

// defaultCronJob: SetDefaults_CronJob; the job template's pod template gets
// the PodSpec defaults (SetDefaults_Job does not run on a template).
func defaultCronJob(obj map[string]any) {
	spec := ensure(obj, "spec")
	if spec == nil {
		return
	}
	setStr(spec, "concurrencyPolicy", "Allow")
	setPtr(spec, "suspend", false)
	setPtr(spec, "successfulJobsHistoryLimit", int64(3))
	setPtr(spec, "failedJobsHistoryLimit", int64(1))
	if jt := child(child(spec, "jobTemplate"), "spec"); jt != nil {
		defaultTemplate(jt)
	}
}

// prepareJobCreate is the job strategy's PrepareForCreate
// (generateSelectorIfNeeded): unless spec.manualSelector, the template gets
// the job-name and controller-uid labels (legacy and batch.kubernetes.io/
// forms) and the selector matches batch.kubernetes.io/controller-uid; a
// status is reset. A Job without labels shows its template's labels
// (SetDefaults_Job, applied when the stored object is read back). It runs
// after the field manager: none of this is in managedFields.
func prepareJobCreate(obj map[string]any) {
	obj["status"] = map[string]any{}
	spec := ensure(obj, "spec")
	meta := ensure(obj, "metadata")
	if spec == nil || meta == nil {
		return
	}
	if b, _ := spec["manualSelector"].(bool); b {
		return
	}
	name, uid := str(meta, "name"), str(meta, "uid")
	tmeta := ensure(ensure(spec, "template"), "metadata")
	labels := ensure(tmeta, "labels")
	sel := ensure(spec, "selector")
	matchLabels := ensure(sel, "matchLabels")
	if labels == nil || matchLabels == nil {
		return // not objects: left to validation
	}
	for k, v := range map[string]string{
		"job-name": name, "batch.kubernetes.io/job-name": name,
		"controller-uid": uid, "batch.kubernetes.io/controller-uid": uid,
	} {
		if _, ok := labels[k]; !ok {
			labels[k] = v
		}
	}
	if _, ok := matchLabels["batch.kubernetes.io/controller-uid"]; !ok {
		matchLabels["batch.kubernetes.io/controller-uid"] = uid
	}
	if ol, _ := meta["labels"].(map[string]any); len(ol) == 0 {
		copied := make(map[string]any, len(labels))
		for k, v := range labels {
			copied[k] = v
		}
		meta["labels"] = copied
	}
}
