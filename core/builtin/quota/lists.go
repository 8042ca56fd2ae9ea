package quota

import (
	"strings"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
)

// Parse is a resource list as written in JSON ({"cpu": "500m"}).
func Parse(m map[string]any) Resources {
	out := make(Resources, len(m))
	for k, v := range m {
		if q, ok := ParseQuantity(v); ok {
			out[k] = q
		}
	}
	return out
}

// Add adds b into a and returns a (quota.Add).
func Add(a, b Resources) Resources {
	for k, v := range b {
		if cur, ok := a[k]; ok {
			v = cur.Add(v)
		}
		a[k] = v
	}
	return a
}

// Delta is what the quotas are charged for an update: new − old per name
// of new, never below 0 (quota.SubtractWithNonNegativeResult), without
// the zeros.
func Delta(new, old Resources) Resources {
	out := Resources{}
	for k, v := range new {
		if w, ok := old[k]; ok {
			v = v.Add(w.Neg())
		}
		if v.Sign() > 0 {
			out[k] = v
		}
	}
	return out
}

// Mask is the entries of a named in names.
func Mask(a Resources, names []string) Resources {
	out := Resources{}
	for _, n := range names {
		if v, ok := a[n]; ok {
			out[n] = v
		}
	}
	return out
}

// Exceeded is quota.LessThanOrEqual's second result: the names of a above
// their limit in b (a name b lacks is not limited), sorted.
func Exceeded(a, b Resources) []string {
	var out []string
	for _, k := range Keys(a) {
		if lim, ok := b[k]; ok && a[k].Cmp(lim) > 0 {
			out = append(out, k)
		}
	}
	return out
}

// Pretty is prettyPrint: "pods=1,requests.cpu=500m" in name order.
func Pretty(a Resources) string {
	var parts []string
	for _, k := range Keys(a) {
		parts = append(parts, k+"="+a[k].String())
	}
	return strings.Join(parts, ",")
}

// JSON is the list as written in an object ({"cpu": "500m"}).
func JSON(a Resources) map[string]any {
	out := make(map[string]any, len(a))
	for k, v := range a {
		out[k] = v.String()
	}
	return out
}

// Equal: the same names with equal quantities (quota.Equals).
func Equal(a, b Resources) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}
