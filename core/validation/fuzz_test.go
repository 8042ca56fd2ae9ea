package validation

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/field"
	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// FuzzValidateObjectMeta: arbitrary JSON metadata never panics, and every
// error renders.
func FuzzValidateObjectMeta(f *testing.F) {
	for _, c := range metaGolden {
		if c.in != "LONG" {
			f.Add([]byte(c.in), []byte(`{"name":"a","resourceVersion":"1"}`), c.namespaced)
		}
	}
	for _, c := range updateGolden {
		f.Add([]byte(c.newMeta), []byte(c.oldMeta), true)
	}
	f.Fuzz(func(t *testing.T, newJSON, oldJSON []byte, namespaced bool) {
		v, err := jsonx.Decode(newJSON)
		if err != nil {
			return
		}
		m, _ := v.(map[string]any)
		p := field.NewPath("metadata")
		for _, fn := range []NameFunc{NameIsDNSSubdomain, NameIsDNSLabel, NameIsDNS1035Label, NameIsPathSegment, nil} {
			_ = ValidateObjectMeta(m, namespaced, fn, p).Message()
		}
		o, err := jsonx.Decode(oldJSON)
		if err != nil {
			return
		}
		om, _ := o.(map[string]any)
		_ = ValidateObjectMetaUpdate(m, om, p).Message()
		_ = ValidateObjectMetaUpdate(om, m, p).Message()
	})
}
