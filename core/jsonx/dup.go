package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// DuplicateFields lists the object keys that appear more than once in a
// JSON document, as dotted paths ("spec.replicas", "spec.ports[0].name"),
// in document order. Invalid JSON yields no duplicates (decoding reports
// that error).
func DuplicateFields(b []byte) []string {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out []string
	scanValue(d, "", &out, 0)
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func scanValue(d *json.Decoder, path string, out *[]string, depth int) bool {
	if depth > 10000 {
		return false
	}
	tok, err := d.Token()
	if err != nil {
		return false
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return true
	}
	switch delim {
	case '{':
		seen := map[string]bool{}
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return false
			}
			k, _ := kt.(string)
			p := join(path, k)
			if seen[k] {
				*out = append(*out, p)
			}
			seen[k] = true
			if !scanValue(d, p, out, depth+1) {
				return false
			}
		}
		_, err := d.Token()
		return err == nil
	case '[':
		for i := 0; d.More(); i++ {
			if !scanValue(d, fmt.Sprintf("%s[%d]", path, i), out, depth+1) {
				return false
			}
		}
		_, err := d.Token()
		return err == nil
	}
	return true
}
