package controllers

import (
	"testing"
)

// collectable decides, from stored bytes alone, which objects of kinds
// without a controller of their own the resync decodes.
func TestCollectable(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stored string
		want   bool
	}{
		{"no owners, not deleting", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","uid":"u"},"data":{"k":"v"}}`, false},
		{"owned", `{"metadata":{"name":"a","ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"o","uid":"u"}]}}`, true},
		{"being deleted", `{"metadata":{"name":"a","deletionTimestamp":"2026-11-26T00:00:00Z","finalizers":["x/y"]}}`, true},
		{"the words inside a string value", `{"metadata":{"name":"a"},"data":{"k":"\"ownerReferences\" and \"deletionTimestamp\""}}`, false},
		{"a data key of that name (a decode too many, never one too few)", `{"metadata":{"name":"a"},"data":{"ownerReferences":"x"}}`, true},
		{"empty owner list", `{"metadata":{"name":"a","ownerReferences":[]}}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := collectable([]byte(tc.stored)); got != tc.want {
				t.Errorf("collectable(%s) = %v, want %v", tc.stored, got, tc.want)
			}
		})
	}
}
