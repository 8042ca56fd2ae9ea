package common

import "testing"

func TestQuantityString(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{"0", "0"}, {"1000m", "1"}, {"0.5", "500m"}, {"1.5Gi", "1536Mi"}, {"2000Mi", "2000Mi"},
		{"1024", "1024"}, {"1Ki", "1Ki"}, {"512Ki", "512Ki"}, {"100", "100"}, {"1e3", "1e3"},
		{"1k", "1k"}, {"1500m", "1500m"}, {"-1", "-1"}, {"0.1m", "100u"}, {"1n", "1n"}, {"0.5n", "1n"},
		{int64(3), "3"}, {"12e6", "12e6"},
	} {
		q, ok := ParseQuantity(c.in)
		if !ok || q.String() != c.want {
			t.Errorf("%v: got %q (%v), want %q", c.in, q.String(), ok, c.want)
		}
	}
	for _, bad := range []any{"", "abc", "1.2.3", "5Q", nil} {
		if _, ok := ParseQuantity(bad); ok {
			t.Errorf("%v parsed", bad)
		}
	}
}

func TestQuantityCmp(t *testing.T) {
	a, _ := ParseQuantity("1536Mi")
	b, _ := ParseQuantity("1.5Gi")
	c, _ := ParseQuantity("2000Mi")
	if a.Cmp(b) != 0 || c.Cmp(b) <= 0 || b.Cmp(c) >= 0 {
		t.Errorf("cmp: %d %d %d", a.Cmp(b), c.Cmp(b), b.Cmp(c))
	}
}

// ScaledValue rounds away from zero, as resource.Quantity.ScaledValue
// (validateBasicResource reports -500m as -1).
func TestQuantityScaledValue(t *testing.T) {
	for _, c := range []struct {
		in    string
		scale int
		want  int64
	}{
		{"100m", -3, 100}, {"1Gi", 0, 1073741824}, {"1.5m", -3, 2}, {"500m", 0, 1},
		{"-500m", 0, -1}, {"-1.5m", -3, -2}, {"-1Gi", 0, -1073741824}, {"0", 0, 0},
	} {
		q, _ := ParseQuantity(c.in)
		if got := q.ScaledValue(c.scale); got != c.want {
			t.Errorf("%s.ScaledValue(%d) = %d, want %d", c.in, c.scale, got, c.want)
		}
	}
}
