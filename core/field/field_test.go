package field

import (
	"reflect"
	"testing"
)

func TestDedup(t *testing.T) {
	labels, annotations := NewPath("metadata", "labels"), NewPath("metadata", "annotations")
	for _, c := range []struct {
		name string
		in   ErrorList
		want []string
	}{
		{"none", nil, nil},
		{"a cause four times is one", ErrorList{Invalid(labels, "a b", "bad"), Invalid(labels, "a b", "bad"), Invalid(labels, "a b", "bad"), Invalid(labels, "a b", "bad")},
			[]string{`metadata.labels: Invalid value: "a b": bad`}},
		{"first occurrences in order", ErrorList{Invalid(labels, "x", "bad"), Invalid(annotations, "y", "bad"), Invalid(labels, "x", "bad")},
			[]string{`metadata.labels: Invalid value: "x": bad`, `metadata.annotations: Invalid value: "y": bad`}},
		{"another value is another cause", ErrorList{Invalid(labels, "x", "bad"), Invalid(labels, "z", "bad")},
			[]string{`metadata.labels: Invalid value: "x": bad`, `metadata.labels: Invalid value: "z": bad`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, e := range c.in.Dedup() {
				got = append(got, e.Error())
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
