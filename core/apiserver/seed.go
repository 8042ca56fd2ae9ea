package apiserver

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/google/uuid"

	"github.com/kubesandbox/kubesandbox/core/persist"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// A new server's first objects (builtin.Bootstrap: the system namespaces,
// the kubernetes Service, Endpoints and EndpointSlice, the system
// PriorityClasses) are what bootstrap's creates store, every time, except
// for their uids, creation times and resourceVersions. So they are
// computed at build time — bootstrap run natively, its store written in the
// core's snapshot format (persist.EncodeSnapshot) with those three left as
// holes (bootstrap_template.go, `go test ./core/apiserver -run
// TestBootstrapTemplate -update`) — and a first start fills the holes and
// seeds the store in one durable write (store.Seed), as a revisit restores:
// no defaulting, field manager or validation runs, and in the browser
// nothing of theirs is compiled on a first visit, nor is IndexedDB
// written nine times. TestBootstrapTemplate checks that this yields
// exactly what bootstrap yields (store, history, durable records) but for
// the holes, so the two cannot drift apart.
//
// A hole is a NUL byte (never in JSON text) and a letter, inside the JSON
// string it stands for:
//
//	"uid":"\x00u"                a fresh uuid per object
//	"creationTimestamp":"\x00t"  the server's clock, as timestamp() writes it
//	"resourceVersion":"\x00r"    the object's revision
//
// The template's revisions start at 2 (a store at 1); a store at head h
// (after a reset) seeds them h-1 later.

// isBootstrapKey: the object stored at key is one the server creates at
// start (left out of an export: every cluster has it).
func isBootstrapKey(key string) bool {
	kvs, _, _ := persist.DecodeSnapshot([]byte(bootstrapTemplate))
	for _, kv := range kvs {
		if kv.Key == key {
			return true
		}
	}
	return false
}

// holeUID, holeTime and holeRev are the holes' letters.
const (
	holeUID  = 'u'
	holeTime = 't'
	holeRev  = 'r'
)

// seedBootstrap creates the bootstrap objects from bootstrapTemplate.
func (s *Server) seedBootstrap() error {
	kvs, _, err := persist.DecodeSnapshot([]byte(bootstrapTemplate))
	if err != nil {
		return err
	}
	shift := s.store.HeadRev() - 1
	now := []byte(s.timestamp())
	for i := range kvs {
		kv := &kvs[i]
		kv.ModRev += shift
		kv.CreateRev += shift
		if kv.Value, err = fillHoles(kv.Value, now, kv.ModRev); err != nil {
			return err
		}
	}
	return s.store.Seed(kvs)
}

// fillHoles returns v with its holes filled in (a new slice).
func fillHoles(v, now []byte, rev store.Revision) ([]byte, error) {
	out := make([]byte, 0, len(v)+64)
	for {
		i := bytes.IndexByte(v, 0)
		if i < 0 {
			return append(out, v...), nil
		}
		if i+1 == len(v) {
			return nil, errors.New("bootstrap template: a hole at the end")
		}
		out = append(out, v[:i]...)
		switch v[i+1] {
		case holeUID:
			out = append(out, uuid.NewString()...)
		case holeTime:
			out = append(out, now...)
		case holeRev:
			out = strconv.AppendInt(out, int64(rev), 10)
		default:
			return nil, errors.New("bootstrap template: an unknown hole")
		}
		v = v[i+2:]
	}
}
