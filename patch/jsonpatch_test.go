package patch

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

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

// BenchmarkMergePatchWide adds n keys to an object in one merge patch; the
// time per key stays flat as n grows tenfold (json-patch v5's merge, which
// this replaced, went from under 1 s at 20,000 keys to ~25 s at 100,000).
// json.Unmarshal of the same patch is the baseline in the same run.
func BenchmarkMergePatchWide(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		var sb strings.Builder
		sb.WriteString(`{"data":{`)
		for i := 0; i < n; i++ {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `"k%d":"v"`, i)
		}
		sb.WriteString(`}}`)
		patch := []byte(sb.String())
		doc := []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"wide"},"data":{"a":"b"}}`)
		b.Run(fmt.Sprintf("merge/keys=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := MergePatch(doc, patch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
		})
		b.Run(fmt.Sprintf("unmarshal/keys=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				var v any
				if err := json.Unmarshal(patch, &v); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
		})
	}
}
