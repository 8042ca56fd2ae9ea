package storage_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

func TestValidateStorageClass(t *testing.T) {
	sc := func(rest string) string {
		return `{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":"s","resourceVersion":"1"},` + rest + `}`
	}
	vtest.Run(t, "storage.k8s.io", "storageclasses", []vtest.Case{
		{Name: "defaults fill the policies", Obj: sc(`"provisioner":"example.com/disk"`)},
		{Name: "no provisioner, bad mode", Obj: sc(`"volumeBindingMode":"Later"`), Want: []string{
			"provisioner: Required value",
			`volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"`}},
		{Name: "parameters are immutable", Old: sc(`"provisioner":"example.com/disk","parameters":{"a":"1"}`), Obj: sc(`"provisioner":"example.com/disk","parameters":{"a":"2"}`), Want: []string{
			`parameters: Invalid value: {"a":"2"}: field is immutable`}},
	})
}
