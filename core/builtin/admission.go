package builtin

import (
	"github.com/kubesandbox/kubesandbox/core/apierr"
	"github.com/kubesandbox/kubesandbox/core/resource"
)

// Admission is kube-apiserver v1.37.2's admission plugins that read other
// objects, in the order of its plugin chain (pkg/kubeapiserver/options
// AllOrderedPlugins): LimitRanger, Priority, and ResourceQuota last. (The ServiceAccount,
// DefaultTolerationSeconds and NamespaceLifecycle plugins need nothing
// but the object and live in the kinds' PrepareCreate and the server.)
func Admission() []*resource.AdmissionPlugin {
	return []*resource.AdmissionPlugin{limitRanger, priorityPlugin, quotaPlugin}
}

// forbidden is admission.NewForbidden: 403 `pods "web" is forbidden: msg`.
func forbidden(a *resource.Attributes, msg string) error {
	name := a.Name
	if name == "" {
		name = "Unknown"
	}
	return apierr.Forbidden(apierr.GR{Group: a.Group, Resource: a.Resource}, name, msg)
}
