package store

import (
	"errors"
	"testing"
	"time"
)

// An UpdateFunc that panics fails its own write only: Update returns a
// *PanicError, nothing is written, and the next write (from another
// goroutine too) goes through instead of waiting on a lock never released.
func TestUpdatePanicReleasesTheLock(t *testing.T) {
	s := New(Options{})
	first := put(t, s, "/a", "1")
	_, ok, err := s.Update("/a", func(*KV, Revision) (Op, error) { panic("bad hook") })
	var pe *PanicError
	if ok || !errors.As(err, &pe) || pe.Value != "bad hook" {
		t.Fatalf("Update = ok %v, err %v; want a *PanicError", ok, err)
	}
	done := make(chan KV)
	go func() { done <- put(t, s, "/a", "2") }()
	select {
	case kv := <-done:
		if string(kv.Value) != "2" || kv.ModRev != first.ModRev+1 {
			t.Errorf("next write = %+v, want value 2 at the revision after the first (the panicking write took none)", kv)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the write after a panicking UpdateFunc never finished: the lock was kept")
	}
}
