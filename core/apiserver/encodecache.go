package apiserver

import (
	"sync"

	"github.com/kubesandbox/kubesandbox/core/schema"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// encodeCache keeps what is derived from one stored version of an object
// and read again by every GET and list of it: its protobuf message in a
// schema (rawread.go), and where its JSON's apiVersion and kind members
// lie (typeMetaCut, for the items of a JSON list: rawlist.go). It holds up
// to encodeCacheBytes (encodecache_js.go / encodecache_other.go); when
// full it is emptied and fills again with what is read next.
//
// An entry is named by the stored key and its ModRev: within one store a
// (key, revision) pair names one value for the store's whole life —
// every write takes a new revision, a staged write is never read before
// it is visible, and Restore loads only an empty store — so a write
// always makes a new entry and an older one is never served for it
// (TestEncodeCacheNeverServesAnOlderRevision). The value's length is
// part of the name as a cheap second check.
type encodeCache struct {
	mu    sync.RWMutex
	m     map[encodedKey]encoded
	bytes int
}

// encodedKey names one stored version of an object in one schema (nil:
// its JSON's typeMetaCut).
type encodedKey struct {
	s   *schema.Schema
	key string
	rev store.Revision
	n   int
}

type encoded struct {
	msg  []byte // the protobuf message, no envelope
	kind string
	cut  typeMetaCut // for a nil schema
}

func keyOf(s *schema.Schema, kv store.KV) encodedKey {
	return encodedKey{s: s, key: kv.Key, rev: kv.ModRev, n: len(kv.Value)}
}

func (c *encodeCache) get(k encodedKey) (encoded, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.m[k]
	return e, ok
}

// getAll fills out[i] with the entry of kvs[i] in schema s, under one
// lock (a list's items); a missing one is left zero.
func (c *encodeCache) getAll(s *schema.Schema, kvs []store.KV, out []encoded) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.m == nil {
		return
	}
	for i, kv := range kvs {
		out[i] = c.m[keyOf(s, kv)]
	}
}

func (c *encodeCache) put(k encodedKey, e encoded) {
	size := len(e.msg) + len(k.key) + len(e.kind) + 128 // the entry and the map's share
	if size > encodeCacheBytes/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.bytes+size > encodeCacheBytes {
		c.m, c.bytes = map[encodedKey]encoded{}, 0
	}
	c.m[k] = e
	c.bytes += size
}
