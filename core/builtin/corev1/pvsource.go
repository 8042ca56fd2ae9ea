package corev1

import (
	"net"
	"path"
	"regexp"
	"slices"
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// pvSources are the PersistentVolumeSource members in the order
// ValidatePersistentVolumeSpec visits them: key, the path a second source
// is refused at ("" for flexVolume, which is never refused), the path its
// own checks name (the real code's spellings: gcePersistentDisk's are
// "persistentDisk", cephFS's "cephfs"), and the fields it requires, in
// the order they are checked, before its own rules (validatePVSource).
var pvSources = [][4]string{
	{"hostPath", "hostPath", "hostPath", ""}, {"gcePersistentDisk", "gcePersistentDisk", "persistentDisk", "pdName"},
	{"awsElasticBlockStore", "awsElasticBlockStore", "awsElasticBlockStore", "volumeID"},
	{"glusterfs", "glusterfs", "glusterfs", "endpoints path"}, {"flocker", "flocker", "flocker", ""},
	{"nfs", "nfs", "nfs", ""}, {"rbd", "rbd", "rbd", "monitors image"}, {"quobyte", "quobyte", "quobyte", ""},
	{"cephfs", "cephFS", "cephfs", "monitors"}, {"iscsi", "iscsi", "iscsi", ""}, {"cinder", "cinder", "cinder", "volumeID"},
	{"fc", "fc", "fc", ""}, {"flexVolume", "", "flexVolume", "driver"}, {"azureFile", "azureFile", "azureFile", "secretName shareName"},
	{"vsphereVolume", "vsphereVolume", "vsphereVolume", "volumePath"},
	{"photonPersistentDisk", "photonPersistentDisk", "photonPersistentDisk", "pdID"},
	{"portworxVolume", "portworxVolume", "portworxVolume", "volumeID"}, {"azureDisk", "azureDisk", "azureDisk", "diskName diskURI"},
	{"scaleIO", "scaleIO", "scaleIO", "gateway system volumeName"}, {"local", "local", "local", ""},
	{"storageos", "storageos", "storageos", ""}, {"csi", "csi", "csi", ""},
}

// validatePVSource is the validateXxxPersistentVolumeSource of one source
// (src is spec[key]; p the path its checks name). Example: an iscsi source
// {targetPortal: "1.2.3.4:3260", iqn: "iqn.2001-04.com.example", lun: 300}
// answers `spec.iscsi.iqn: Invalid value: "iqn.2001-04.com.example": must
// be valid format` and `spec.iscsi.lun: Invalid value: 300: must be
// between 0 and 255, inclusive`.
func validatePVSource(s [4]string, src map[string]any, p *field.Path, affinity bool, sp *field.Path, pvName string) field.ErrorList {
	var errs field.ErrorList
	for _, k := range strings.Fields(s[3]) {
		if v := src[k]; v == nil || v == "" || len(List(src, k)) == 0 && !isStr(v) {
			errs = append(errs, field.Required(p.Child(k), ""))
		}
	}
	invalid := func(k string, v any, msg string) { errs = append(errs, field.Invalid(p.Child(k), v, msg)) }
	inRange := func(k string, lo, hi int64) {
		if n, ok := IntOK(src, k); ok && (n < 0 || n > 255) {
			invalid(k, n, InclusiveRangeError(lo, hi))
		}
	}
	switch s[0] {
	case "hostPath", "local":
		pp := p.Child("path")
		if Str(src, "path") == "" {
			errs = append(errs, field.Required(pp, ""))
		} else {
			if slices.Contains(strings.Split(Str(src, "path"), "/"), "..") {
				errs = append(errs, field.Invalid(pp, Str(src, "path"), "must not contain '..'"))
			}
			if t, ok := src["type"].(string); ok && s[0] == "hostPath" && !slices.Contains(hostPathTypes, t) {
				errs = append(errs, field.NotSupported(p.Child("type"), t, hostPathTypes))
			}
		}
		if s[0] == "local" && !affinity {
			errs = append(errs, field.Required(sp.Child("nodeAffinity"), "Local volume requires node affinity"))
		}
	case "gcePersistentDisk", "awsElasticBlockStore":
		inRange("partition", 1, 255) // the check is 0..255, the message kube's pdPartitionErrorMsg
	case "glusterfs":
		if ns, ok := src["endpointsNamespace"].(string); ok {
			if ns == "" {
				invalid("endpointsNamespace", ns, "if the endpointnamespace is set, it must be a valid namespace name")
			} else {
				errs = append(errs, dns1123Label(ns, p.Child("endpointsNamespace"))...)
			}
		}
	case "flocker":
		name, uid := Str(src, "datasetName"), Str(src, "datasetUUID")
		if name == "" && uid == "" {
			errs = append(errs, field.Required(p, "one of datasetName and datasetUUID is required"))
		}
		if name != "" && uid != "" {
			errs = append(errs, field.Invalid(p, "resource", "datasetName and datasetUUID can not be specified simultaneously"))
		}
		if strings.Contains(name, "/") {
			invalid("datasetName", name, "must not contain '/'")
		}
	case "nfs":
		if Str(src, "server") == "" {
			errs = append(errs, field.Required(p.Child("server"), ""))
		}
		if Str(src, "path") == "" {
			errs = append(errs, field.Required(p.Child("path"), ""))
		}
		if !path.IsAbs(Str(src, "path")) {
			invalid("path", Str(src, "path"), "must be an absolute path")
		}
	case "quobyte":
		const msg = "must be a host:port pair or multiple pairs separated by commas"
		reg := Str(src, "registry")
		switch {
		case reg == "":
			errs = append(errs, field.Required(p.Child("registry"), msg))
		case len(Str(src, "tenant")) >= 65:
			errs = append(errs, field.Required(p.Child("tenant"), "must be a UUID and may not exceed a length of 64 characters"))
		default:
			for _, hp := range strings.Split(reg, ",") {
				if _, _, err := net.SplitHostPort(hp); err != nil {
					invalid("registry", reg, msg)
				}
			}
		}
		if Str(src, "volume") == "" {
			errs = append(errs, field.Required(p.Child("volume"), ""))
		}
	case "iscsi":
		portal := Str(src, "targetPortal")
		if portal == "" {
			errs = append(errs, field.Required(p.Child("targetPortal"), ""))
		}
		init, hasInit := src["initiatorName"].(string)
		if hasInit && len(pvName)+1+len(portal) > 64 {
			invalid("targetportal", portal, "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.")
		}
		if iqn := Str(src, "iqn"); iqn == "" {
			errs = append(errs, field.Required(p.Child("iqn"), ""))
		} else if !iscsiName(iqn) {
			invalid("iqn", iqn, "must be valid format")
		}
		inRange("lun", 0, 255)
		if (Bool(src, "chapAuthDiscovery") || Bool(src, "chapAuthSession")) && src["secretRef"] == nil {
			errs = append(errs, field.Required(p.Child("secretRef"), ""))
		}
		if ref, ok := src["secretRef"].(map[string]any); ok && Str(ref, "name") == "" {
			errs = append(errs, field.Required(p.Child("secretRef", "name"), ""))
		}
		if hasInit && !iscsiName(init) {
			invalid("initiatorname", init, "must be valid format")
		}
	case "cinder", "storageos":
		if s[0] == "storageos" {
			if vn := Str(src, "volumeName"); vn == "" {
				errs = append(errs, field.Required(p.Child("volumeName"), ""))
			} else {
				errs = append(errs, dns1123Label(vn, p.Child("volumeName"))...)
			}
			if vns := Str(src, "volumeNamespace"); vns != "" {
				errs = append(errs, dns1123Label(vns, p.Child("volumeNamespace"))...)
			}
		}
		if ref, ok := src["secretRef"].(map[string]any); ok {
			for _, k := range []string{"name", "namespace"} {
				if Str(ref, k) == "" {
					errs = append(errs, field.Required(p.Child("secretRef", k), ""))
				}
			}
		}
	case "fc":
		wwns, wwids := List(src, "targetWWNs"), List(src, "wwids")
		if len(wwns) == 0 && len(wwids) == 0 {
			errs = append(errs, field.Required(p.Child("targetWWNs"), "must specify either targetWWNs or wwids, but not both"))
		}
		if len(wwns) != 0 && len(wwids) != 0 {
			invalid("targetWWNs", jsonValue(wwns), "targetWWNs and wwids can not be specified simultaneously")
		}
		if len(wwns) != 0 {
			if src["lun"] == nil {
				errs = append(errs, field.Required(p.Child("lun"), "lun is required if targetWWNs is specified"))
			}
			inRange("lun", 0, 255)
		}
	case "flexVolume":
		for _, k := range Keys(StrMap(src, "options")) {
			ns, _, _ := strings.Cut(k, "/")
			if n := "." + strings.ToLower(ns); strings.HasSuffix(n, ".kubernetes.io") || strings.HasSuffix(n, ".k8s.io") {
				errs = append(errs, field.Invalid(p.Child("options").Key(k), k, "kubernetes.io and k8s.io namespaces are reserved"))
			}
		}
	case "azureFile":
		if ns, ok := src["secretNamespace"].(string); ok && ns == "" {
			errs = append(errs, field.Required(p.Child("secretNamespace"), ""))
		}
	case "azureDisk":
		if m, ok := src["cachingMode"].(string); ok && m != "None" && m != "ReadOnly" && m != "ReadWrite" {
			errs = append(errs, field.NotSupported(p.Child("cachingMode"), m, []string{"None", "ReadOnly", "ReadWrite"}))
		}
		kind, hasKind := src["kind"].(string)
		if hasKind && kind != "Dedicated" && kind != "Managed" && kind != "Shared" {
			errs = append(errs, field.NotSupported(p.Child("kind"), kind, []string{"Dedicated", "Managed", "Shared"}))
		}
		uri := Str(src, "diskURI")
		if hasKind && kind == "Managed" && !strings.HasPrefix(uri, "/subscriptions/") {
			errs = append(errs, field.NotSupported(p.Child("diskURI"), uri, []string{"/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"}))
		}
		if hasKind && kind != "Managed" && !strings.HasPrefix(uri, "https://") {
			errs = append(errs, field.NotSupported(p.Child("diskURI"), uri, []string{"https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"}))
		}
	case "csi":
		errs = append(errs, validateCSIDriverName(Str(src, "driver"), p.Child("driver"))...)
		if Str(src, "volumeHandle") == "" {
			errs = append(errs, field.Required(p.Child("volumeHandle"), ""))
		}
		for _, k := range []string{"controllerPublishSecretRef", "controllerExpandSecretRef", "nodePublishSecretRef", "nodeExpandSecretRef"} {
			if ref, ok := src[k].(map[string]any); ok {
				rp := p.Child(k)
				if n := Str(ref, "name"); n == "" {
					errs = append(errs, field.Required(rp.Child("name"), ""))
				} else {
					errs = append(errs, dns1123Subdomain(n, rp.Child("name"))...)
				}
				if ns := Str(ref, "namespace"); ns == "" {
					errs = append(errs, field.Required(rp.Child("namespace"), ""))
				} else {
					errs = append(errs, dns1123Label(ns, rp.Child("namespace"))...)
				}
			}
		}
	}
	return errs
}

func isStr(v any) bool { _, ok := v.(string); return ok }

// iscsiName is the iqn/eui/naa format check kube runs on an iSCSI
// qualified name and initiator name (iscsiInitiator{Iqn,Eui,Naa}Regex;
// the iqn pattern is not anchored at its start).
func iscsiName(s string) bool {
	var re string
	switch {
	case strings.HasPrefix(s, "iqn"):
		re = `iqn\.\d{4}-\d{2}\.([[:alnum:]-.]+)(:[^,;*&$|\s]+)$`
	case strings.HasPrefix(s, "eui"):
		re = `^eui.[[:alnum:]]{16}$`
	case strings.HasPrefix(s, "naa"):
		re = `^naa.[[:alnum:]]{32}$`
	default:
		return false
	}
	ok, _ := regexp.MatchString(re, s)
	return ok
}
