package protobuf

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
)

// TestEncodeListEqualsEncodeResponse: a list written from encoded items is
// the list EncodeResponse writes from the objects, for no, one and many
// items (lengths across varint boundaries), with and without continue.
func TestEncodeListEqualsEncodeResponse(t *testing.T) {
	cm := def(t, "api.core.v1.ConfigMap")
	for _, tc := range []struct {
		name  string
		n     int
		value int // bytes of each item's data value
		meta  string
	}{
		{"empty", 0, 0, `{"resourceVersion":"7"}`},
		{"one", 1, 10, `{"resourceVersion":"7"}`},
		{"items over 127 bytes", 3, 200, `{"resourceVersion":"12"}`},
		{"list over 16 KiB, continue", 40, 1000, `{"continue":"abc","remainingItemCount":5,"resourceVersion":"99"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lm, err := jsonx.DecodeObject([]byte(tc.meta))
			if err != nil {
				t.Fatal(err)
			}
			var objs []any
			var msgs [][]byte
			for i := 0; i < tc.n; i++ {
				obj, err := jsonx.DecodeObject([]byte(fmt.Sprintf(`{"metadata":{"name":"cm-%d","namespace":"ns","resourceVersion":"%d"},"data":{"k":%q}}`, i, i+1, strings.Repeat("x", tc.value))))
				if err != nil {
					t.Fatal(err)
				}
				msg, err := EncodeMessage(obj, cm)
				if err != nil {
					t.Fatal(err)
				}
				objs, msgs = append(objs, obj), append(msgs, msg)
			}
			want, err := EncodeResponse(map[string]any{"apiVersion": "v1", "kind": "ConfigMapList", "metadata": lm, "items": objs}, cm)
			if err != nil {
				t.Fatal(err)
			}
			got, err := EncodeList("v1", "ConfigMapList", lm, msgs, cm)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%v\n got %x\nwant %x", err, got, want)
			}
		})
	}
}
