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
	var cuts []typeMetaCut
	n := 64 + len(meta) + len(kvs)
	if q.res.CRD {
		for _, kv := range kvs {
			n += len(kv.Value)
		}
	} else {
		cuts = q.typeMetaCuts(kvs)
		for i, c := range cuts {
			n += c.size(kvs[i].Value)
		}
	}
	b := make([]byte, 0, n)
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
			b = cuts[i].append(b, kv.Value)
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

// typeMetaCuts is the typeMetaCut of each stored object, kept in the
// encode cache (nil schema) when finding it means scanning members before
// "kind" — a ConfigMap's or Secret's data, a whole Event — and found now
// when "kind" follows "apiVersion".
func (q *request) typeMetaCuts(kvs []store.KV) []typeMetaCut {
	es := make([]encoded, len(kvs))
	q.s.encoded.getAll(nil, kvs, es)
	cuts := make([]typeMetaCut, len(kvs))
	gv := q.res.GroupVersion()
	for i, kv := range kvs {
		switch {
		case es[i].cut.runs > 0 || es[i].cut.raw:
			cuts[i] = es[i].cut
		case kindSecond(kv.Value, gv):
			cuts[i] = cutTypeMeta(kv.Value)
		default:
			cuts[i] = cutTypeMeta(kv.Value)
			q.s.encoded.put(keyOf(nil, kv), encoded{cut: cuts[i]})
		}
	}
	return cuts
}

// kindSecond reports a stored object whose members begin with apiVersion
// gv and then "kind" (a Pod, a Deployment …): its cut is found at once.
func kindSecond(obj []byte, gv string) bool {
	const p = `{"apiVersion":"`
	n := len(p) + len(gv)
	return hasAPIVersion(obj, gv) && len(obj) > n+9 && string(obj[n+1:n+9]) == `,"kind":`
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
func appendWithoutTypeMeta(dst, obj []byte) []byte { return cutTypeMeta(obj).append(dst, obj) }

// typeMetaCut says where withoutTypeMeta(obj)'s bytes lie in obj: "{",
// then up to three runs of obj's kept members (each run a stretch of obj
// from one kept member to the last before a dropped one, commas
// included) joined by ",", then "}" unless the last run already holds
// it; raw: obj itself. Example: for
//
//	{"apiVersion":"v1","data":{"a":"b"},"kind":"ConfigMap","metadata":{}}
//
// the runs are `"data":{"a":"b"}` and `"metadata":{}` (the second runs to
// the end of obj, the closing brace included, as the rest after both
// dropped members is not scanned).
type typeMetaCut struct {
	raw      bool
	closed   bool // the last run ends with obj's closing brace
	runs     uint8
	from, to [3]int32
}

func cutTypeMeta(obj []byte) typeMetaCut {
	raw := typeMetaCut{raw: true}
	if len(obj) < 2 || obj[0] != '{' || len(obj) > 1<<31-1 {
		return raw
	}
	var c typeMetaCut
	i, n := 1, len(obj)
	open := false // a run of kept members is open: from[runs] set
	dropped := 0
	for i < n && obj[i] != '}' {
		if dropped == 2 { // the rest: members after the last one dropped
			c.from[c.runs], c.to[c.runs] = int32(i), int32(n)
			c.runs++
			c.closed = true
			return c
		}
		start := i
		if obj[i] != '"' {
			return raw
		}
		keyEnd := jsonx.SkipValue(obj, i)
		if keyEnd < 0 || keyEnd >= n || obj[keyEnd] != ':' {
			return raw
		}
		key := obj[start:keyEnd]
		valEnd := jsonx.SkipValue(obj, keyEnd+1)
		if valEnd < 0 {
			return raw
		}
		if !bytes.Equal(key, []byte(`"apiVersion"`)) && !bytes.Equal(key, []byte(`"kind"`)) {
			if !open {
				c.from[c.runs] = int32(start)
				open = true
			}
			c.to[c.runs] = int32(valEnd)
		} else {
			if open {
				c.runs++
				open = false
			}
			dropped++
		}
		i = valEnd
		if i < n && obj[i] == ',' {
			i++
		} else if i < n && obj[i] != '}' {
			return raw // `{"a":1"b":2}`: not a member list
		}
	}
	if i != n-1 {
		return raw // unterminated, or something after the object
	}
	if open {
		c.runs++
	}
	return c
}

// append appends the object obj without its type meta to dst.
func (c typeMetaCut) append(dst, obj []byte) []byte {
	if c.raw {
		return append(dst, obj...)
	}
	dst = append(dst, '{')
	for r := 0; r < int(c.runs); r++ {
		if r > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, obj[c.from[r]:c.to[r]]...)
	}
	if !c.closed {
		dst = append(dst, '}')
	}
	return dst
}

// size is len(c.append(nil, obj)).
func (c typeMetaCut) size(obj []byte) int {
	if c.raw {
		return len(obj)
	}
	n := 1 + int(c.runs)
	if c.runs > 0 {
		n--
	}
	for r := 0; r < int(c.runs); r++ {
		n += int(c.to[r] - c.from[r])
	}
	if !c.closed {
		n++
	}
	return n
}
