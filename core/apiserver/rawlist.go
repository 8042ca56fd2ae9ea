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
		keyEnd := skipString(obj, i)
		if keyEnd < 0 || keyEnd >= n || obj[keyEnd] != ':' {
			return obj
		}
		key := obj[start:keyEnd]
		valEnd := skipValue(obj, keyEnd+1)
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
		}
	}
	if i >= n {
		return obj
	}
	return append(out, '}')
}

// skipString returns the index after the JSON string starting at i, or -1.
func skipString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue returns the index after the compact JSON value starting at i.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				j := skipString(b, i)
				if j < 0 {
					return -1
				}
				i = j - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	for ; i < len(b); i++ {
		if b[i] == ',' || b[i] == '}' || b[i] == ']' {
			return i
		}
	}
	return i
}
