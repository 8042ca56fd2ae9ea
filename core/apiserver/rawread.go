package apiserver

import (
	"net/http"

	"github.com/kubesandbox/kubesandbox/core/protobuf"
	"github.com/kubesandbox/kubesandbox/core/schema"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// Reads answered from the stored bytes (the list's JSON splice is in
// rawlist.go): a GET in JSON writes the stored object as it is — it is
// already the compact, key-sorted JSON that decoding and re-encoding it
// gives — and the protobuf message of a stored object is encoded once per
// stored version and kept (encodeCache), as kube-apiserver's watch cache
// keeps an object's serializations (cachingObject). Anything else — a
// Table, metadata-only, YAML, a version other than the stored one, a
// subresource, an object that does not encode — takes the decoding path.

// servesStored reports whether the answer is the stored object in the
// stored form: no Table, no partial metadata, objects stored in the
// version (and group) asked for, the main resource.
func (q *request) servesStored() bool {
	return !q.s.decodeReads && !q.out.table && q.out.partial == "" && q.ri.subresource == "" &&
		(q.res.StorageVersion == "" || q.res.StorageVersion == q.res.Version) && q.res.View == nil
}

// protoStored reports a protobuf answer of a built-in kind from stored
// objects.
func (q *request) protoStored() bool {
	return q.out.media == mediaProtobuf && q.out.proto != nil && !q.res.CRD && q.servesStored()
}

// getStored answers a GET from the stored bytes; done is false when the
// decoding path must answer (obj, decoded already, is then given to it).
func (q *request) getStored() (done bool, obj object, err error) {
	kv, _, err := q.s.store.Get(q.key(), 0)
	if err != nil {
		return true, nil, storeErr(err, q.gr(), q.ri.name)
	}
	if q.out.media == mediaJSON && hasAPIVersion(kv.Value, q.res.GroupVersion()) {
		return true, nil, q.writeBody(http.StatusOK, mediaJSON, kv.Value)
	}
	if q.protoStored() {
		if e, err := q.storedMessage(kv, q.out.proto); err == nil {
			return true, nil, q.writeBody(http.StatusOK, mediaProtobuf, protobuf.Envelope(q.res.GroupVersion(), e.kind, e.msg))
		}
	}
	obj, err = q.decodeStored(kv)
	return err != nil, obj, err
}

// answersStored reports that a write's JSON answer is the bytes it stored
// (stored: nil on a dry run): the stored form asked for, and no
// controller hook that may change the object after the write.
func (q *request) answersStored(stored []byte) bool {
	return stored != nil && q.out.media == mediaJSON && q.servesStored() &&
		q.res.Hooks.Controller == nil && hasAPIVersion(stored, q.res.GroupVersion())
}

// warnKept adds the warnings kept for obj (respond does this for the
// answers it encodes).
func (q *request) warnKept(obj object) {
	for _, text := range q.s.takeWarnings(obj) {
		if h, ok := warningHeader(text); ok {
			q.warn = append(q.warn, h)
		}
	}
}

// hasAPIVersion reports a stored object whose first member (keys are
// sorted) is "apiVersion" with the value gv, as decodeStored sets it.
func hasAPIVersion(obj []byte, gv string) bool {
	const p = `{"apiVersion":"`
	n := len(p) + len(gv)
	return len(obj) > n && string(obj[:len(p)]) == p && string(obj[len(p):n]) == gv && obj[n] == '"'
}

// writeProtoList writes a protobuf list whose items are the stored
// objects' cached messages; false (nothing written) when an item does not
// encode, so that the decoding path answers with its error.
func (q *request) writeProtoList(kvs []store.KV, lm map[string]any) (bool, error) {
	es := make([]encoded, len(kvs))
	q.s.encoded.getAll(q.out.proto, kvs, es)
	items := make([][]byte, len(kvs))
	for i, kv := range kvs {
		if es[i].msg == nil {
			e, err := q.storedMessage(kv, q.out.proto)
			if err != nil {
				return false, nil
			}
			es[i] = e
		}
		items[i] = es[i].msg
	}
	b, err := protobuf.EncodeList(q.res.GroupVersion(), q.res.ListKind, lm, items, q.out.proto)
	if err != nil {
		return false, nil
	}
	return true, q.writeBody(http.StatusOK, mediaProtobuf, b)
}

// writeBody writes an answer of media type ct, with the request's
// warnings.
func (q *request) writeBody(code int, ct string, b []byte) error {
	for _, w := range q.warn {
		q.w.Header().Add("Warning", w)
	}
	q.w.Header().Set("Content-Type", ct)
	q.w.WriteHeader(code)
	_, err := q.w.Write(b)
	return err
}

// storedMessage is the protobuf message (no envelope) of a stored object
// of schema s, from the cache or encoded now and kept.
func (q *request) storedMessage(kv store.KV, s *schema.Schema) (encoded, error) {
	k := keyOf(s, kv)
	if e, ok := q.s.encoded.get(k); ok {
		return e, nil
	}
	e, err := q.encodeStored(kv, s)
	if err == nil {
		q.s.encoded.put(k, e)
	}
	return e, err
}

// encodeStored encodes a stored object's protobuf message.
func (q *request) encodeStored(kv store.KV, s *schema.Schema) (encoded, error) {
	obj, err := q.decodeStored(kv)
	if err != nil {
		return encoded{}, err
	}
	msg, err := protobuf.EncodeMessage(obj, s)
	if err != nil {
		return encoded{}, err
	}
	kind, _ := obj["kind"].(string)
	return encoded{msg: msg, kind: kind}, nil
}
