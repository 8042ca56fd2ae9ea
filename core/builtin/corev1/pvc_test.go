package corev1_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

func TestValidatePVC(t *testing.T) {
	pvc := func(spec string) string {
		return `{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"c","namespace":"default","resourceVersion":"1"},"spec":` + spec + `}`
	}
	vtest.Run(t, "", "persistentvolumeclaims", []vtest.Case{
		{Name: "a claim", Obj: pvc(`{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}`)},
		{Name: "empty", Obj: pvc(`{}`), Want: []string{
			"spec.accessModes: Required value: at least 1 access mode is required",
			"spec.resources[storage]: Required value"}},
		{Name: "a secret as data source is dropped", Obj: pvc(`{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"dataSource":{"kind":"Secret","name":"s"}}`)},
		{Name: "growing is allowed, shrinking below capacity is not", Old: pvc(`{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}`),
			Obj: pvc(`{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"0"}}}`), Want: []string{
				`spec.resources[storage]: Invalid value: "0": must be greater than zero`,
				"spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n" +
					"@@ -4,7 +4,7 @@\n  ],\n  \"resources\": {\n   \"requests\": {\n-   \"storage\": \"1Gi\"\n+   \"storage\": \"0\"\n   }\n  },\n  \"volumeMode\": \"Filesystem\"\n",
				"spec.resources.requests.storage: Forbidden: field can not be less than status.capacity"}},
	})
}
