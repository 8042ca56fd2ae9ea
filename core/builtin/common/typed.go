package common

import (
	"encoding/base64"
	"errors"
	"strconv"
	"strings"

	"github.com/kubesandbox/kubesandbox/core/schema"
)

// The errors resource.ParseQuantity answers, word for word: kube-apiserver
// wraps them into its 400 ("Pod in version \"v1\" cannot be handled as a
// Pod: quantities must match the regular expression ...").
var (
	ErrQuantityFormat  = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	ErrQuantityNumeric = errors.New("unable to parse numeric part of quantity")
	ErrQuantitySuffix  = errors.New("unable to parse quantity's suffix")
)

// DecodeTyped does to a built-in object what decoding it into its Go type
// does on kube-apiserver, for the two JSON spellings the schema alone does
// not pin down: every quantity (format "quantity") is parsed and written in
// its canonical spelling, and every []byte (format "byte") must be base64.
// It returns the decoding error the server would answer with a 400.
//
//	{"requests": {"cpu": 0.5, "memory": "1.5Gi"}, "limits": {"cpu": "1000"}}
//	→ {"requests": {"cpu": "500m", "memory": "1536Mi"}, "limits": {"cpu": "1k"}}
//	{"cpu": "abc"} → ErrQuantityFormat;  Secret data {"a": "!!"} → "illegal base64 data at input byte 0"
func DecodeTyped(s *schema.Schema, obj any) error {
	return decodeTyped(s, obj, 0)
}

func decodeTyped(s *schema.Schema, x any, depth int) error {
	if s == nil || depth > 1000 {
		return nil
	}
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			sub := s.Properties[k]
			if sub == nil {
				sub = s.AdditionalProperties
			}
			if sub == nil {
				continue
			}
			nv, err := decodeLeaf(sub, v)
			if err != nil {
				return err
			}
			x[k] = nv
			if err := decodeTyped(sub, nv, depth+1); err != nil {
				return err
			}
		}
	case []any:
		if s.Items == nil {
			return nil
		}
		for i, v := range x {
			nv, err := decodeLeaf(s.Items, v)
			if err != nil {
				return err
			}
			x[i] = nv
			if err := decodeTyped(s.Items, nv, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodeLeaf returns v as its Go type would write it back, or the error
// decoding it would give.
func decodeLeaf(s *schema.Schema, v any) (any, error) {
	switch s.Format {
	case "quantity":
		if v == nil {
			return v, nil
		}
		return CanonicalQuantity(v)
	case "byte":
		str, ok := v.(string)
		if !ok {
			return v, nil // a type error, reported by schema validation
		}
		b, err := base64.StdEncoding.DecodeString(str)
		if err != nil {
			return nil, err
		}
		return base64.StdEncoding.EncodeToString(b), nil
	}
	return v, nil
}

// CanonicalQuantity is Quantity.UnmarshalJSON followed by MarshalJSON: the
// spelling kube-apiserver stores for a quantity given as a JSON string or
// number. A spelling ParseQuantity keeps (already canonical, e.g. "+1",
// "1e3", "100m") is kept; others are rewritten ("0.5" → "500m", 1000 →
// "1k", "1.5Gi" → "1536Mi").
func CanonicalQuantity(v any) (string, error) {
	var str string
	switch t := v.(type) {
	case string:
		str = strings.TrimSpace(t)
	case int64:
		str = strconv.FormatInt(t, 10)
	case float64:
		str = strconv.FormatFloat(t, 'f', -1, 64)
	default:
		return "", ErrQuantityFormat // true, {}, []: not a number
	}
	keep, err := quantitySyntax(str)
	if err != nil {
		return "", err
	}
	q, ok := parseQuantity(str)
	if !ok {
		return "", ErrQuantityNumeric
	}
	if keep {
		return str, nil
	}
	return q.String(), nil
}

// quantitySyntax ports the checks of resource.ParseQuantity that decide
// its error, and reports whether it keeps the string as written (its
// int64 fast path on a canonical spelling).
func quantitySyntax(str string) (keep bool, err error) {
	if str == "" {
		return false, ErrQuantityFormat
	}
	if str == "0" {
		return true, nil
	}
	num, denom, suffix, ok := splitQuantity(str)
	if !ok {
		return false, ErrQuantityFormat
	}
	exp, binary, ok := quantitySuffix(suffix)
	if !ok {
		return false, ErrQuantitySuffix
	}
	shifted := num + denom
	if binary {
		if denom != "" || 15-len(num)-exp*3/10-1 < 0 {
			return false, nil
		}
		v, err := strconv.ParseInt(num, 10, 64)
		return err == nil && exp%10 == 0 && v&0x07 != 0 && v<<exp>>exp == v, nil
	}
	scale := exp - len(denom)
	if 18-len(shifted) < 0 || scale < -9 {
		return false, nil
	}
	if _, err := strconv.ParseInt(shifted, 10, 64); err != nil {
		return false, nil
	}
	return scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0', nil
}

// splitQuantity is resource.parseQuantityString: the numerator without
// leading zeros, the denominator and the suffix, or !ok where it answers
// ErrFormatWrong.
func splitQuantity(str string) (num, denom, suffix string, ok bool) {
	pos, end := 0, len(str)
	if str[0] == '-' || str[0] == '+' {
		pos++
	}
	for pos < end && str[pos] == '0' {
		pos++
	}
	if pos == end {
		return "0", "", "", true
	}
	i := pos
	for i < end && str[i] >= '0' && str[i] <= '9' {
		i++
	}
	num, pos = str[pos:i], i
	if num == "" {
		num = "0"
	}
	if pos < end && str[pos] == '.' {
		pos++
		i = pos
		for i < end && str[i] >= '0' && str[i] <= '9' {
			i++
		}
		denom, pos = str[pos:i], i
	}
	start := pos
	for pos < end && strings.IndexByte("eEinumkKMGTP", str[pos]) >= 0 {
		pos++
	}
	if pos < end && (str[pos] == '-' || str[pos] == '+') {
		pos++
	}
	for pos < end && str[pos] >= '0' && str[pos] <= '9' {
		pos++
	}
	if pos < end {
		return "", "", "", false
	}
	return num, denom, str[start:], true
}

// quantitySuffix is the suffixer's interpret: the exponent of a decimal
// (10^exp) or binary (2^exp) suffix.
func quantitySuffix(s string) (exp int, binary, ok bool) {
	if e, ok := decSuffix[s]; ok {
		return e, false, true
	}
	if e, ok := binSuffix[s]; ok {
		return int(e), true, true
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		e, err := strconv.ParseInt(s[1:], 10, 32)
		return int(e), false, err == nil
	}
	return 0, false, false
}
