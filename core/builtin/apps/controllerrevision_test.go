package apps_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

func TestValidateControllerRevision(t *testing.T) {
	cr := func(rest string) string {
		return `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r","namespace":"default","resourceVersion":"1"}` + rest + `}`
	}
	vtest.Run(t, "apps", "controllerrevisions", []vtest.Case{
		{Name: "a revision", Obj: cr(`,"revision":1,"data":{"spec":{}}`)},
		{Name: "no data, negative revision", Obj: cr(`,"revision":-1`), Want: []string{
			"revision: Invalid value: -1: must be greater than or equal to 0",
			"data: Required value: data is mandatory"}},
		{Name: "data is immutable", Old: cr(`,"revision":1,"data":{"a":1}`), Obj: cr(`,"revision":1,"data":{"a":2}`), Want: []string{
			`data: Invalid value: {"a":2}: field is immutable`}},
	})
}
