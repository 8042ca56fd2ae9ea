package corev1

import (
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// volumeSources are the VolumeSource members in the order
// validateVolumeSource visits them, with the path it names each by when a
// second one is set (the real code's spellings, "downwarAPI" included).
var volumeSources = []struct{ key, name string }{
	{"emptyDir", "emptyDir"}, {"hostPath", "hostPath"}, {"gitRepo", "gitRepo"},
	{"gcePersistentDisk", "gcePersistentDisk"}, {"awsElasticBlockStore", "awsElasticBlockStore"},
	{"secret", "secret"}, {"nfs", "nfs"}, {"iscsi", "iscsi"}, {"glusterfs", "glusterfs"},
	{"flocker", "flocker"}, {"persistentVolumeClaim", "persistentVolumeClaim"}, {"rbd", "rbd"},
	{"cinder", "cinder"}, {"cephfs", "cephFS"}, {"quobyte", "quobyte"}, {"downwardAPI", "downwarAPI"},
	{"fc", "fc"}, {"flexVolume", "flexVolume"}, {"configMap", "configMap"}, {"azureFile", "azureFile"},
	{"vsphereVolume", "vsphereVolume"}, {"photonPersistentDisk", "photonPersistentDisk"},
	{"portworxVolume", "portworxVolume"}, {"azureDisk", "azureDisk"}, {"storageos", "storageos"},
	{"projected", "projected"}, {"scaleIO", "scaleIO"}, {"csi", "csi"}, {"ephemeral", "ephemeral"},
	{"image", "image"},
}

const (
	fileModeErrorMsg     = "must be a number between 0 and 0777 (octal), both inclusive"
	emptyDirModeErrorMsg = "must be a number between 0 and 01777 (octal), both inclusive"
)

var hostPathTypes = []string{"", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"}

// validateVolumes is ValidateVolumes: it returns the volumes that passed,
// by name, for the mounts to refer to.
func validateVolumes(vols []map[string]any, p *field.Path) (map[string]map[string]any, field.ErrorList) {
	var errs field.ErrorList
	names := map[string]bool{}
	valid := map[string]map[string]any{}
	for i, v := range vols {
		ip := p.Index(i)
		name := Str(v, "name")
		el := validateVolumeSource(v, ip)
		if name == "" {
			el = append(el, field.Required(ip.Child("name"), ""))
		} else {
			el = append(el, dns1123Label(name, ip.Child("name"))...)
		}
		if names[name] {
			el = append(el, field.Duplicate(ip.Child("name"), name))
		}
		if len(el) == 0 {
			names[name] = true
			valid[name] = v
		} else {
			errs = append(errs, el...)
		}
	}
	return valid, errs
}

func validateVolumeSource(v map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	for _, s := range volumeSources {
		src := Obj(v, s.key)
		if src == nil {
			continue
		}
		if s.key == "emptyDir" {
			n++
			if sl, ok := ParseQuantity(src["sizeLimit"]); ok && sl.Sign() < 0 {
				errs = append(errs, field.Forbidden(p.Child("emptyDir").Child("sizeLimit"), "SizeLimit field must be a valid resource quantity"))
			}
			continue
		}
		if n > 0 {
			errs = append(errs, field.Forbidden(p.Child(s.name), "may not specify more than 1 volume type"))
			continue
		}
		n++
		sp := p.Child(s.name)
		switch s.key {
		case "hostPath":
			if Str(src, "path") == "" {
				errs = append(errs, field.Required(sp.Child("path"), ""))
				break
			}
			for _, item := range strings.Split(Str(src, "path"), "/") {
				if item == ".." {
					errs = append(errs, field.Invalid(sp.Child("path"), Str(src, "path"), "must not contain '..'"))
					break
				}
			}
			if Has(src, "type") && !has(hostPathTypes, Str(src, "type")) {
				errs = append(errs, field.NotSupported(sp.Child("type"), Str(src, "type"), hostPathTypes))
			}
		case "secret", "configMap":
			nameKey := "name"
			if s.key == "secret" {
				nameKey = "secretName"
			}
			if Str(src, nameKey) == "" {
				errs = append(errs, field.Required(sp.Child(nameKey), ""))
			}
			if m, ok := IntOK(src, "defaultMode"); ok && (m > 0777 || m < 0) {
				errs = append(errs, field.Invalid(sp.Child("defaultMode"), m, fileModeErrorMsg))
			}
			for j, kp := range Objs(src, "items") {
				errs = append(errs, validateKeyToPath(kp, sp.Child("items").Index(j))...)
			}
		case "persistentVolumeClaim":
			if Str(src, "claimName") == "" {
				errs = append(errs, field.Required(sp.Child("claimName"), ""))
			}
		}
	}
	if n == 0 {
		errs = append(errs, field.Required(p, "must specify a volume type"))
	}
	return errs
}

func validateKeyToPath(kp map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if Str(kp, "key") == "" {
		errs = append(errs, field.Required(p.Child("key"), ""))
	}
	path := Str(kp, "path")
	if path == "" {
		errs = append(errs, field.Required(p.Child("path"), ""))
	}
	errs = append(errs, validateLocalNonReservedPath(path, p.Child("path"))...)
	if m, ok := IntOK(kp, "mode"); ok && (m > 0777 || m < 0) {
		errs = append(errs, field.Invalid(p.Child("mode"), m, fileModeErrorMsg))
	}
	return errs
}

func validateLocalNonReservedPath(target string, p *field.Path) field.ErrorList {
	errs := validateLocalDescendingPath(target, p)
	if strings.HasPrefix(target, "..") && !strings.HasPrefix(target, "../") {
		errs = append(errs, field.Invalid(p, target, "must not start with '..'"))
	}
	return errs
}
