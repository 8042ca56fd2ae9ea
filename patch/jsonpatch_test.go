package patch

import (
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/apierr"
)

var apierrGK = apierr.GK{Group: "example.com", Kind: "Widget"}

// TestJSONPatchGolden replays cases recorded with json-patch v4 and the
// handler's decoding (testdata/oracle), under Warn ("") and Ignore.
func TestJSONPatchGolden(t *testing.T) {
	for _, g := range loadGolden(t, "testdata/jsonpatch_golden.json") {
		t.Run(g.Name, func(t *testing.T) {
			opts := Options{}
			if strings.HasPrefix(g.Name, "ignore: ") {
				opts.FieldValidation = FieldValidationIgnore
			}
			r, err := JSONPatchWith(g.Original, []byte(g.Body), opts)
			if g.Code == 0 && g.Error != "" {
				if got := strings.Join(r.StrictErrors, "\n"); got != g.Error {
					t.Errorf("warnings:\nwant %q\ngot  %q", g.Error, got)
				}
				g.Error = ""
			}
			checkGolden(t, g, r.Object, err)
		})
	}
}

func TestMergePatchGolden(t *testing.T) {
	for _, g := range loadGolden(t, "testdata/merge_golden.json") {
		t.Run(g.Name, func(t *testing.T) {
			opts := Options{}
			if strings.HasPrefix(g.Name, "ignore: ") {
				opts.FieldValidation = FieldValidationIgnore
			}
			r, err := MergePatchWith(g.Original, []byte(g.Body), opts)
			if g.Code == 0 && g.Error != "" {
				if got := strings.Join(r.StrictErrors, "\n"); got != g.Error {
					t.Errorf("warnings:\nwant %q\ngot  %q", g.Error, got)
				}
				g.Error = ""
			}
			checkGolden(t, g, r.Object, err)
		})
	}
}
