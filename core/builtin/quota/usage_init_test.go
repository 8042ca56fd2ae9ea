package quota

import (
	"reflect"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/common"
)

// One and Zero, made from integers, are what parsing "1" and "0" gives.
func TestOneAndZeroAreTheParsedQuantities(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  common.Quantity
		s    string
	}{{"One", One, "1"}, {"Zero", Zero, "0"}} {
		t.Run(tc.name, func(t *testing.T) {
			if want := quantity(tc.s); !reflect.DeepEqual(tc.got, want) {
				t.Errorf("%#v, want %#v", tc.got, want)
			}
		})
	}
}
