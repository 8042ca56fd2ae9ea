package corev1_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

// TestValidatePVSources checks the volume sources beyond hostPath, nfs,
// local and csi as ValidatePersistentVolumeSpec does (the texts are the
// real server's, from reference/validation's differential).
func TestValidatePVSources(t *testing.T) {
	pv := func(src string) string {
		return `{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv1"},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],` + src + `}}`
	}
	vtest.Run(t, "", "persistentvolumes", []vtest.Case{
		{Name: "iscsi", Obj: pv(`"iscsi":{"targetPortal":"1.2.3.4:3260","iqn":"iqn.2001-04.com.example:storage","lun":0}`)},
		{Name: "iscsi bad iqn and lun, chap without secret", Obj: pv(`"iscsi":{"targetPortal":"p","iqn":"iqn.2001-04.com.example","lun":300,"chapAuthSession":true}`), Want: []string{
			`spec.iscsi.iqn: Invalid value: "iqn.2001-04.com.example": must be valid format`,
			`spec.iscsi.lun: Invalid value: 300: must be between 0 and 255, inclusive`,
			`spec.iscsi.secretRef: Required value`}},
		{Name: "gce partition (kube's message says 1)", Obj: pv(`"gcePersistentDisk":{"partition":300}`), Want: []string{
			`spec.persistentDisk.pdName: Required value`,
			`spec.persistentDisk.partition: Invalid value: 300: must be between 1 and 255, inclusive`}},
		{Name: "azureDisk defaults to kind Shared, a blob URI", Obj: pv(`"azureDisk":{"diskName":"d","diskURI":"uri"}`), Want: []string{
			`spec.azureDisk.diskURI: Unsupported value: "uri": supported values: "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"`}},
		{Name: "fc both lists", Obj: pv(`"fc":{"targetWWNs":["w1"],"wwids":["x"],"lun":1}`), Want: []string{
			`spec.fc.targetWWNs: Invalid value: ["w1"]: targetWWNs and wwids can not be specified simultaneously`}},
		{Name: "quobyte registry pairs", Obj: pv(`"quobyte":{"registry":"bad,r:1","volume":"v"}`), Want: []string{
			`spec.quobyte.registry: Invalid value: "bad,r:1": must be a host:port pair or multiple pairs separated by commas`}},
		{Name: "flexVolume reserved option", Obj: pv(`"flexVolume":{"driver":"x/y","options":{"kubernetes.io/x":"1"}}`), Want: []string{
			`spec.flexVolume.options[kubernetes.io/x]: Invalid value: "kubernetes.io/x": kubernetes.io and k8s.io namespaces are reserved`}},
		{Name: "a second source", Obj: pv(`"rbd":{"monitors":["m"],"image":"i"},"cephfs":{}`), Want: []string{
			`spec.cephFS: Forbidden: may not specify more than 1 volume type`}},
	})
}
