package builtin

import (
	"github.com/kubesandbox/kubesandbox/core/builtin/apps"
	"github.com/kubesandbox/kubesandbox/core/builtin/batch"
	"github.com/kubesandbox/kubesandbox/core/builtin/corev1"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// entry is one catalogue row: the resource and its schema definition name.
type entry struct {
	res resource.Resource
	def string
	// hooks adds the hooks kept in the kind's own file (namespace.go,
	// service.go, crd.go); it runs for every copy Resources makes, so
	// state such as a Service's allocator belongs to one server.
	hooks func(h *resource.Hooks)
}

// Discovery facts (short names, categories, verbs, subresources) are those
// of the real server's /api/v1, /apis/apps/v1, /apis/batch/v1 and
// /apis/apiextensions.k8s.io/v1 documents (kubernetes api/discovery).
// Selectable fields are those of the registry strategies' GetAttrs
// (pkg/registry/*/*/strategy.go); metadata.name (and metadata.namespace for
// namespaced resources) are always selectable and not listed. Printer
// columns are those of pkg/printers/internalversion/printers.go.

var allVerbs = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}

const (
	podTemplateReplicasPath = ".spec.replicas"
	statusReplicasPath      = ".status.replicas"
)

// Column description helpers.
func doc(key string) string { return columnDocs[key] }

var (
	nameColumn = resource.PrinterColumn{Name: "Name", Type: "string", Format: "name", Description: doc("meta/v1.ObjectMeta.name"), JSONPath: ".metadata.name"}
	ageColumn  = resource.PrinterColumn{Name: "Age", Type: "string", Description: doc("meta/v1.ObjectMeta.creationTimestamp"), Cell: ageCell} // a duration
	containers = resource.PrinterColumn{Name: "Containers", Type: "string", Priority: 1, Description: "Names of each container in the template.", Cell: containersCell}
	images     = resource.PrinterColumn{Name: "Images", Type: "string", Priority: 1, Description: "Images referenced by each container in the template.", Cell: imagesCell}
)

func col(name, typ string, priority int64, description, jsonPath string) resource.PrinterColumn {
	return resource.PrinterColumn{Name: name, Type: typ, Priority: priority, Description: description, JSONPath: jsonPath}
}

var catalogue = []entry{
	// core/v1
	{def: "io.k8s.api.core.v1.ConfigMap", res: resource.Resource{
		Version: "v1", Resource: "configmaps", Singular: "configmap", Kind: "ConfigMap", ListKind: "ConfigMapList",
		Namespaced: true, ShortNames: []string{"cm"}, Verbs: allVerbs,
		NoGeneration: true,
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			withCell(col("Data", "string", 0, doc("core/v1.ConfigMap.data"), ""), configMapData), // len(data)+len(binaryData)
			ageColumn},
		Hooks: resource.Hooks{Default: defaultConfigMap, Validate: corev1.ValidateConfigMap},
	}},
	{def: "io.k8s.api.core.v1.Event", res: resource.Resource{
		Version: "v1", Resource: "events", Singular: "event", Kind: "Event", ListKind: "EventList",
		Namespaced: true, ShortNames: []string{"ev"}, Verbs: allVerbs,
		NoGeneration: true, NoKindMetaChecks: true,
		SelectableFields: []string{
			"involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid",
			"involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath",
			"reason", "reportingComponent", "source", "type",
		},
		PrinterColumns: []resource.PrinterColumn{
			withCell(col("Last Seen", "string", 0, doc("core/v1.Event.lastTimestamp"), ""), eventLastSeen),
			col("Type", "string", 0, doc("core/v1.Event.type"), ".type"),
			col("Reason", "string", 0, doc("core/v1.Event.reason"), ".reason"),
			withCell(col("Object", "string", 0, doc("core/v1.Event.involvedObject"), ""), eventObject), // kind/name
			withCell(col("Subobject", "string", 1, doc("core/v1.ObjectReference.fieldPath"), ".involvedObject.fieldPath"), eventSubobject),
			withCell(col("Source", "string", 1, doc("core/v1.Event.source"), ""), eventSource), // component, host
			col("Message", "string", 0, doc("core/v1.Event.message"), ".message"),
			withCell(col("First Seen", "string", 1, doc("core/v1.Event.firstTimestamp"), ""), eventFirstSeen),
			withCell(col("Count", "string", 1, doc("core/v1.Event.count"), ""), eventCount),
			{Name: "Name", Type: "string", Format: "name", Priority: 1, Description: doc("meta/v1.ObjectMeta.name"), JSONPath: ".metadata.name"},
		},
		Hooks: resource.Hooks{Default: defaultEvent, Validate: corev1.ValidateEvent},
	}},
	{def: "io.k8s.api.core.v1.Namespace", hooks: namespaceHooks, res: resource.Resource{
		Version: "v1", Resource: "namespaces", Singular: "namespace", Kind: "Namespace", ListKind: "NamespaceList",
		ShortNames: []string{"ns"}, Verbs: []string{"create", "delete", "get", "list", "patch", "update", "watch"},
		NoGeneration: true, DeleteReturnsObject: true,
		Status: true,
		// "name" is a historical bug the real server keeps for compatibility.
		SelectableFields: []string{"status.phase", "name"},
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			col("Status", "string", 0, "The status of the namespace", ".status.phase"),
			ageColumn},
		Hooks: resource.Hooks{Default: defaultNamespace, PrepareCreate: prepareNamespaceCreate, PrepareUpdate: prepareNamespaceUpdate,
			Validate: corev1.ValidateNamespace},
	}},
	{def: "io.k8s.api.core.v1.Pod", res: resource.Resource{
		Version: "v1", Resource: "pods", Singular: "pod", Kind: "Pod", ListKind: "PodList",
		Namespaced: true, ShortNames: []string{"po"}, Categories: []string{"all"}, Verbs: allVerbs,
		DeleteReturnsObject: true,
		Status:              true,
		StatusKeeps:         []string{"deletionTimestamp", "ownerReferences"}, // podStatusStrategy: old kubelets corrupt owner references
		SelectableFields: []string{
			"spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName",
			"spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName",
		},
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			withCell(col("Ready", "string", 0, "The aggregate readiness state of this pod for accepting traffic.", ""), podReady),
			withCell(col("Status", "string", 0, "The aggregate status of the containers in this pod.", ""), podStatus),
			withCell(col("Restarts", "string", 0, "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.", ""), podRestarts),
			ageColumn,
			col("IP", "string", 1, doc("core/v1.PodStatus.podIP"), ".status.podIP"),
			col("Node", "string", 1, doc("core/v1.PodSpec.nodeName"), ".spec.nodeName"),
			col("Nominated Node", "string", 1, doc("core/v1.PodStatus.nominatedNodeName"), ".status.nominatedNodeName"),
			withCell(col("Readiness Gates", "string", 1, doc("core/v1.PodSpec.readinessGates"), ""), noneCell),
		},
		Subresources: podSubresources,
		Hooks: resource.Hooks{Default: defaultPod, PrepareCreate: preparePodCreate, Warnings: corev1.PodWarnings,
			PrepareStatusUpdate: corev1.PreparePodStatusUpdate,
			Validate:            corev1.ValidatePod, Delete: resource.DeleteHooks{GracePeriod: corev1.PodGracePeriod}},
	}},
	{def: "io.k8s.api.core.v1.Secret", res: resource.Resource{
		Version: "v1", Resource: "secrets", Singular: "secret", Kind: "Secret", ListKind: "SecretList",
		Namespaced: true, Verbs: allVerbs,
		NoGeneration:     true,
		SelectableFields: []string{"type"},
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			col("Type", "string", 0, doc("core/v1.Secret.type"), ".type"),
			withCell(col("Data", "string", 0, doc("core/v1.Secret.data"), ""), secretData), // len(data)
			ageColumn},
		Hooks: resource.Hooks{Default: defaultSecret, Validate: corev1.ValidateSecret},
	}},
	{def: "io.k8s.api.core.v1.ServiceAccount", res: resource.Resource{
		Version: "v1", Resource: "serviceaccounts", Singular: "serviceaccount", Kind: "ServiceAccount", ListKind: "ServiceAccountList",
		Namespaced: true, ShortNames: []string{"sa"}, Verbs: allVerbs,
		NoGeneration:   true,
		PrinterColumns: []resource.PrinterColumn{nameColumn, ageColumn}, // kube 1.37 prints no Secrets column
		Subresources:   []resource.Subresource{serviceAccountToken},
		Hooks:          resource.Hooks{Validate: corev1.ValidateServiceAccount},
	}},
	{def: "io.k8s.api.core.v1.ReplicationController", res: resource.Resource{
		Version: "v1", Resource: "replicationcontrollers", Singular: "replicationcontroller", Kind: "ReplicationController", ListKind: "ReplicationControllerList",
		Namespaced: true, ShortNames: []string{"rc"}, Categories: []string{"all"}, Verbs: allVerbs,
		Status: true, NoKindMetaChecks: true, // declarative validation's order (corev1.ValidateReplicationController)
		OrphanByDefault: true,
		// the registry's Scale prints labels.SelectorFromSet(spec.selector)
		Scale:            &resource.Scale{SpecReplicasPath: podTemplateReplicasPath, StatusReplicasPath: statusReplicasPath, LabelSelectorPath: ".spec.selector", SelectorIsSet: true},
		SelectableFields: []string{"status.replicas"},
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			col("Desired", "integer", 0, doc("core/v1.ReplicationControllerSpec.replicas"), ".spec.replicas"),
			col("Current", "integer", 0, doc("core/v1.ReplicationControllerStatus.replicas"), ".status.replicas"),
			col("Ready", "integer", 0, doc("core/v1.ReplicationControllerStatus.readyReplicas"), ".status.readyReplicas"),
			ageColumn, containers, images,
			withCell(col("Selector", "string", 1, doc("core/v1.ReplicationControllerSpec.selector"), ""), serviceSelector), // labels.FormatLabels
		},
		Hooks: resource.Hooks{Default: defaultReplicationController, Validate: corev1.ValidateReplicationController,
			Warnings: corev1.WorkloadWarnings(true, false, "spec", "template")},
	}},
	{def: "io.k8s.api.core.v1.Service", hooks: serviceHooks, res: resource.Resource{
		Version: "v1", Resource: "services", Singular: "service", Kind: "Service", ListKind: "ServiceList",
		Namespaced: true, ShortNames: []string{"svc"}, Categories: []string{"all"}, Verbs: allVerbs,
		NoGeneration: true, DeleteReturnsObject: true,
		Status:           true,
		SelectableFields: []string{"spec.clusterIP", "spec.type"},
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			col("Type", "string", 0, doc("core/v1.ServiceSpec.type"), ".spec.type"),
			col("Cluster-IP", "string", 0, doc("core/v1.ServiceSpec.clusterIP"), ".spec.clusterIP"),
			withCell(col("External-IP", "string", 0, doc("core/v1.ServiceSpec.externalIPs"), ""), serviceExternalIP),
			withCell(col("Port(s)", "string", 0, doc("core/v1.ServiceSpec.ports"), ""), servicePorts),
			ageColumn,
			withCell(col("Selector", "string", 1, doc("core/v1.ServiceSpec.selector"), ""), serviceSelector),
		},
		Hooks: resource.Hooks{Default: defaultService, PrepareCreate: prepareServiceCreate, PrepareUpdate: prepareServiceUpdate, Validate: corev1.ValidateService},
	}},

	// apps/v1
	{def: "io.k8s.api.apps.v1.DaemonSet", res: resource.Resource{
		Group: "apps", Version: "v1", Resource: "daemonsets", Singular: "daemonset", Kind: "DaemonSet", ListKind: "DaemonSetList",
		Namespaced: true, ShortNames: []string{"ds"}, Categories: []string{"all"}, Verbs: allVerbs,
		Status: true,
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			col("Desired", "integer", 0, doc("apps/v1.DaemonSetStatus.desiredNumberScheduled"), ".status.desiredNumberScheduled"),
			col("Current", "integer", 0, doc("apps/v1.DaemonSetStatus.currentNumberScheduled"), ".status.currentNumberScheduled"),
			col("Ready", "integer", 0, doc("apps/v1.DaemonSetStatus.numberReady"), ".status.numberReady"),
			col("Up-to-date", "integer", 0, doc("apps/v1.DaemonSetStatus.updatedNumberScheduled"), ".status.updatedNumberScheduled"),
			col("Available", "integer", 0, doc("apps/v1.DaemonSetStatus.numberAvailable"), ".status.numberAvailable"),
			withCell(col("Node Selector", "string", 0, doc("core/v1.PodSpec.nodeSelector"), ""), nodeSelectorCell),
			ageColumn, containers, images,
			withCell(col("Selector", "string", 1, doc("apps/v1.DaemonSetSpec.selector"), ""), selectorCell),
		},
		TableMetadata: daemonSetTableMetadata,
		Hooks: resource.Hooks{Default: defaultDaemonSet, PrepareCreate: prepareDaemonSetCreate, PrepareUpdate: prepareDaemonSetUpdate, Validate: apps.ValidateDaemonSet,
			Warnings: corev1.WorkloadWarnings(false, false, "spec", "template")},
	}},
	{def: "io.k8s.api.apps.v1.Deployment", res: resource.Resource{
		Group: "apps", Version: "v1", Resource: "deployments", Singular: "deployment", Kind: "Deployment", ListKind: "DeploymentList",
		Namespaced: true, ShortNames: []string{"deploy"}, Categories: []string{"all"}, Verbs: allVerbs,
		Status: true, StatusKeeps: []string{"labels"}, // deploymentStatusStrategy
		Scale: &resource.Scale{SpecReplicasPath: podTemplateReplicasPath, StatusReplicasPath: statusReplicasPath, LabelSelectorPath: ".status.selector"},
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			withCell(col("Ready", "string", 0, "Number of the pod with ready state", ""), readyOfReplicas), // readyReplicas/replicas
			withCell(col("Up-to-date", "string", 0, doc("apps/v1.DeploymentStatus.updatedReplicas"), ".status.updatedReplicas"), statusInt("updatedReplicas")),
			withCell(col("Available", "string", 0, doc("apps/v1.DeploymentStatus.availableReplicas"), ".status.availableReplicas"), statusInt("availableReplicas")),
			ageColumn, containers, images,
			withCell(col("Selector", "string", 1, doc("apps/v1.DeploymentSpec.selector"), ""), selectorCell),
		},
		Hooks: resource.Hooks{Default: defaultDeployment, Validate: apps.ValidateDeployment,
			Warnings: corev1.WorkloadWarnings(true, false, "spec", "template")},
	}},
	{def: "io.k8s.api.apps.v1.ReplicaSet", res: resource.Resource{
		Group: "apps", Version: "v1", Resource: "replicasets", Singular: "replicaset", Kind: "ReplicaSet", ListKind: "ReplicaSetList",
		Namespaced: true, ShortNames: []string{"rs"}, Categories: []string{"all"}, Verbs: allVerbs,
		Status:           true,
		Scale:            &resource.Scale{SpecReplicasPath: podTemplateReplicasPath, StatusReplicasPath: statusReplicasPath, LabelSelectorPath: ".status.selector"},
		SelectableFields: []string{"status.replicas"},
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			col("Desired", "integer", 0, doc("apps/v1.ReplicaSetSpec.replicas"), ".spec.replicas"),
			col("Current", "integer", 0, doc("apps/v1.ReplicaSetStatus.replicas"), ".status.replicas"),
			col("Ready", "integer", 0, doc("apps/v1.ReplicaSetStatus.readyReplicas"), ".status.readyReplicas"),
			ageColumn, containers, images,
			withCell(col("Selector", "string", 1, doc("apps/v1.ReplicaSetSpec.selector"), ""), selectorCell),
		},
		Hooks: resource.Hooks{Default: defaultReplicaSet, Validate: apps.ValidateReplicaSet,
			Warnings: corev1.WorkloadWarnings(true, false, "spec", "template")},
	}},
	{def: "io.k8s.api.apps.v1.StatefulSet", res: resource.Resource{
		Group: "apps", Version: "v1", Resource: "statefulsets", Singular: "statefulset", Kind: "StatefulSet", ListKind: "StatefulSetList",
		Namespaced: true, ShortNames: []string{"sts"}, Categories: []string{"all"}, Verbs: allVerbs,
		Status: true,
		Scale:  &resource.Scale{SpecReplicasPath: podTemplateReplicasPath, StatusReplicasPath: statusReplicasPath, LabelSelectorPath: ".status.selector"},
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			withCell(col("Ready", "string", 0, "Number of the pod with ready state", ""), readyOfReplicas), // readyReplicas/replicas
			ageColumn, containers, images,
		},
		Hooks: resource.Hooks{Default: defaultStatefulSet, Validate: apps.ValidateStatefulSet,
			Warnings: corev1.WorkloadWarnings(false, true, "spec", "template")},
	}},

	// batch/v1
	{def: "io.k8s.api.batch.v1.CronJob", res: resource.Resource{
		Group: "batch", Version: "v1", Resource: "cronjobs", Singular: "cronjob", Kind: "CronJob", ListKind: "CronJobList",
		Namespaced: true, ShortNames: []string{"cj"}, Categories: []string{"all"}, Verbs: allVerbs,
		Status: true,
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			col("Schedule", "string", 0, doc("batch/v1beta1.CronJobSpec.schedule"), ".spec.schedule"),
			withCell(col("Timezone", "string", 0, doc("batch/v1beta1.CronJobSpec.timeZone"), ""), cronJobTimezone), // "<none>" when unset
			withCell(col("Suspend", "boolean", 0, doc("batch/v1beta1.CronJobSpec.suspend"), ""), cronJobSuspend),
			withCell(col("Active", "integer", 0, doc("batch/v1beta1.CronJobStatus.active"), ""), cronJobActive), // len(status.active)
			withCell(col("Last Schedule", "string", 0, doc("batch/v1beta1.CronJobStatus.lastScheduleTime"), ""), cronJobLastSchedule),
			ageColumn, containers, images,
			withCell(col("Selector", "string", 1, doc("batch/v1.JobSpec.selector"), ""), selectorCell),
		},
		Hooks: resource.Hooks{Default: defaultCronJob, Validate: batch.ValidateCronJob,
			Warnings: corev1.WorkloadWarnings(true, false, "spec", "jobTemplate", "spec", "template")},
	}},
	{def: "io.k8s.api.batch.v1.Job", res: resource.Resource{
		Group: "batch", Version: "v1", Resource: "jobs", Singular: "job", Kind: "Job", ListKind: "JobList",
		Namespaced: true, Categories: []string{"all"}, Verbs: allVerbs,
		Status:           true,
		SelectableFields: []string{"status.successful"},
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			withCell(col("Status", "string", 0, "Status of the job.", ""), jobStatus),
			withCell(col("Completions", "string", 0, doc("batch/v1.JobStatus.succeeded"), ""), jobCompletions), // succeeded/completions
			withCell(col("Duration", "string", 0, "Time required to complete the job.", ""), jobDuration),
			ageColumn, containers, images,
			withCell(col("Selector", "string", 1, doc("batch/v1.JobSpec.selector"), ""), selectorCell),
		},
		Hooks: resource.Hooks{Default: defaultJob, PrepareCreate: prepareJobCreate, Validate: batch.ValidateJob,
			Warnings: corev1.WorkloadWarnings(true, false, "spec", "template")},
	}},

	// apiextensions.k8s.io/v1: served with the default table convertor.
	{def: "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition", hooks: crdHooks, res: resource.Resource{
		Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions", Singular: "customresourcedefinition",
		Kind: "CustomResourceDefinition", ListKind: "CustomResourceDefinitionList",
		ShortNames: []string{"crd", "crds"}, Categories: []string{"api-extensions"}, Verbs: allVerbs,
		EncodingVersion: "v1beta1", // apiextensions-apiserver's storage encoding
		Status:          true,
		DuplicateCauses: true, // its strategy runs no declarative validation
		PrinterColumns: []resource.PrinterColumn{nameColumn,
			{Name: "Created At", Type: "date", Description: doc("meta/v1.ObjectMeta.creationTimestamp"), JSONPath: ".metadata.creationTimestamp"},
		},
	}},
}
