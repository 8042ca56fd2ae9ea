package apiserver

import (
	"bytes"
	"net/http"

	"github.com/kubesandbox/kubesandbox/core/jsonx"
	"github.com/kubesandbox/kubesandbox/core/store"
)

// The JSON list fast path: stored objects are already the compact JSON the
// response needs, so a plain JSON list splices their bytes instead of
// decoding and re-encoding every item (the slow part of a 10,000-item list).

// canWriteRawList reports whether the list can be spliced: JSON out, no
// Table, and objects stored in the version (and group) asked for.
func (q *request) canWriteRawList() bool {
	return q.out.media == mediaJSON && !q.out.table && q.out.partial == "" && !q.s.decodeReads &&
		(q.res.StorageVersion == "" || q.res.StorageVersion == q.res.Version) && q.res.View == nil
}

func (q *request) writeRawList(kvs []store.KV, lm map[string]any) error {
	meta, err := jsonx.Marshal(lm)
	if err != nil {
		return err
	}
	b := make([]byte, 0, 64+len(meta)+len(kvs)*(len(first(kvs))+1))
	b = append(b, `{"apiVersion":"`...)
	b = append(b, q.res.GroupVersion()...)
	b = append(b, `","items":[`...)
	for i, kv := range kvs {
		if i > 0 {
			b = append(b, ',')
		}
		if q.res.CRD {
			b = append(b, kv.Value...)
		} else {
			b = appendWithoutTypeMeta(b, kv.Value)
		}
	}
	b = append(b, `],"kind":"`...)
	b = append(b, q.res.ListKind...)
	b = append(b, `","metadata":`...)
	b = append(b, meta...)
	b = append(b, '}')
	for _, w := range q.warn {
		q.w.Header().Add("Warning", w)
	}
	q.w.Header().Set("Content-Type", mediaJSON)
	q.w.WriteHeader(http.StatusOK)
	_, err = q.w.Write(b)
	return err
}

func first(kvs []store.KV) []byte {
	if len(kvs) == 0 {
		return nil
	}
	return kvs[0].Value
}

// withoutTypeMeta drops the top-level "apiVersion" and "kind" members of a
// compact JSON object, as typed lists show their items. Input that is not
// a well-formed object up to both members is returned unchanged. Keys are
// unique in stored objects (they are marshalled maps), so once both
// members are gone the rest is copied without scanning it.
func withoutTypeMeta(obj []byte) []byte { return appendWithoutTypeMeta(nil, obj) }

// appendWithoutTypeMeta appends withoutTypeMeta(obj) to dst.
func appendWithoutTypeMeta(dst, obj []byte) []byte {
	if len(obj) < 2 || obj[0] != '{' {
		return append(dst, obj...)
	}
	base := len(dst)
	out := append(dst, '{')
	i, n := 1, len(obj)
	firstMember := true
	dropped := 0
	for i < n && obj[i] != '}' {
		if dropped == 2 { // the rest: members after the last one dropped
			if !firstMember {
				out = append(out, ',')
			}
			return append(out, obj[i:]...)
		}
		start := i
		if obj[i] != '"' {
			return append(dst[:base], obj...)
		}
		keyEnd := jsonx.SkipValue(obj, i)
		if keyEnd < 0 || keyEnd >= n || obj[keyEnd] != ':' {
			return append(dst[:base], obj...)
		}
		key := obj[start:keyEnd]
		valEnd := jsonx.SkipValue(obj, keyEnd+1)
		if valEnd < 0 {
			return append(dst[:base], obj...)
		}
		if !bytes.Equal(key, []byte(`"apiVersion"`)) && !bytes.Equal(key, []byte(`"kind"`)) {
			if !firstMember {
				out = append(out, ',')
			}
			out = append(out, obj[start:valEnd]...)
			firstMember = false
		} else {
			dropped++
		}
		i = valEnd
		if i < n && obj[i] == ',' {
			i++
		} else if i < n && obj[i] != '}' {
			return append(dst[:base], obj...) // `{"a":1"b":2}`: not a member list
		}
	}
	if i != n-1 {
		return append(dst[:base], obj...) // unterminated, or something after the object
	}
	return append(out, '}')
}
