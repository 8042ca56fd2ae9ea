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
	return q.out.media == mediaJSON && !q.out.table && q.out.partial == "" &&
		(q.res.StorageVersion == "" || q.res.StorageVersion == q.res.Version) && q.res.View == nil
}

func (q *request) writeRawList(kvs []store.KV, lm map[string]any) error {
	meta, err := jsonx.Marshal(lm)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.Grow(64 + len(meta) + len(kvs)*(len(first(kvs))+1))
	b.WriteString(`{"apiVersion":"`)
	b.WriteString(q.res.GroupVersion())
	b.WriteString(`","items":[`)
	for i, kv := range kvs {
		if i > 0 {
			b.WriteByte(',')
		}
		if q.res.CRD {
			b.Write(kv.Value)
		} else {
			b.Write(withoutTypeMeta(kv.Value))
		}
	}
	b.WriteString(`],"kind":"`)
	b.WriteString(q.res.ListKind)
	b.WriteString(`","metadata":`)
	b.Write(meta)
	b.WriteByte('}')
	for _, w := range q.warn {
		q.w.Header().Add("Warning", w)
	}
	q.w.Header().Set("Content-Type", mediaJSON)
	q.w.WriteHeader(http.StatusOK)
	_, err = q.w.Write(b.Bytes())
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
// a well-formed object is returned unchanged.
func withoutTypeMeta(obj []byte) []byte {
	if len(obj) < 2 || obj[0] != '{' {
		return obj
	}
	out := make([]byte, 0, len(obj))
	out = append(out, '{')
	i, n := 1, len(obj)
	firstMember := true
	for i < n && obj[i] != '}' {
		start := i
		if obj[i] != '"' {
			return obj
		}
		keyEnd := jsonx.SkipValue(obj, i)
		if keyEnd < 0 || keyEnd >= n || obj[keyEnd] != ':' {
			return obj
		}
		key := obj[start:keyEnd]
		valEnd := jsonx.SkipValue(obj, keyEnd+1)
		if valEnd < 0 {
			return obj
		}
		if !bytes.Equal(key, []byte(`"apiVersion"`)) && !bytes.Equal(key, []byte(`"kind"`)) {
			if !firstMember {
				out = append(out, ',')
			}
			out = append(out, obj[start:valEnd]...)
			firstMember = false
		}
		i = valEnd
		if i < n && obj[i] == ',' {
			i++
		} else if i < n && obj[i] != '}' {
			return obj // `{"a":1"b":2}`: not a member list
		}
	}
	if i != n-1 {
		return obj // unterminated, or something after the object
	}
	return append(out, '}')
}
