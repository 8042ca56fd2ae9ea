package controllers

import "testing"

func TestNormalizeImage(t *testing.T) {
	for in, want := range map[string]string{
		"nginx":                            "docker.io/library/nginx:latest",
		"nginx:1.25":                       "docker.io/library/nginx:1.25",
		"bitnami/redis":                    "docker.io/bitnami/redis:latest",
		"registry.k8s.io/pause:3.10":       "registry.k8s.io/pause:3.10",
		"localhost/app":                    "localhost/app:latest",
		"localhost:5000/app:v1":            "localhost:5000/app:v1",
		"ghcr.io/o/r@sha256:abcd":          "ghcr.io/o/r@sha256:abcd",
		"quay.io:443/coreos/etcd:v3.5.9-0": "quay.io:443/coreos/etcd:v3.5.9-0",
	} {
		t.Run(in, func(t *testing.T) {
			if got := normalizeImage(in); got != want {
				t.Errorf("normalizeImage(%q) = %q, want %q", in, got, want)
			}
		})
	}
}

func TestComputeHash(t *testing.T) {
	tmpl := map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}}
	a := computeHash(tmpl, nil)
	one := int64(1)
	for _, c := range []struct {
		name string
		got  string
		same bool
	}{
		{"stable", computeHash(map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}}, nil), true},
		{"collision count changes it", computeHash(tmpl, &one), false},
		{"template changes it", computeHash(map[string]any{}, nil), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if (c.got == a) != c.same {
				t.Errorf("%q vs %q", c.got, a)
			}
		})
	}
	// byte b ↦ alphabet[b % 27]: "0" is 48 ↦ index 21 ↦ "4"
	if got := safeEncodeString("0123456789"); got != "456789bcdf" {
		t.Errorf("safeEncodeString = %q", got)
	}
}

func TestScaledValue(t *testing.T) {
	for _, c := range []struct {
		v       any
		total   int64
		up      bool
		want    int64
		comment string
	}{
		{"25%", 3, true, 1, "maxSurge of 3 rounds up"},
		{"25%", 3, false, 0, "maxUnavailable of 3 rounds down"},
		{int64(2), 10, false, 2, "absolute"},
		{"50%", 5, false, 2, "floor"},
		{"abc", 5, true, 0, "garbage"},
	} {
		t.Run(c.comment, func(t *testing.T) {
			if got := scaledValue(c.v, c.total, c.up); got != c.want {
				t.Errorf("scaledValue(%v,%d,%v) = %d, want %d", c.v, c.total, c.up, got, c.want)
			}
		})
	}
}

func TestMatchesSelector(t *testing.T) {
	labels := map[string]string{"app": "web", "tier": "fe"}
	for _, c := range []struct {
		name string
		sel  map[string]any
		want bool
	}{
		{"nil matches nothing", nil, false},
		{"empty matches all", map[string]any{}, true},
		{"matchLabels", map[string]any{"matchLabels": map[string]any{"app": "web"}}, true},
		{"matchLabels miss", map[string]any{"matchLabels": map[string]any{"app": "db"}}, false},
		{"In", map[string]any{"matchExpressions": []any{map[string]any{"key": "tier", "operator": "In", "values": []any{"fe", "be"}}}}, true},
		{"NotIn", map[string]any{"matchExpressions": []any{map[string]any{"key": "tier", "operator": "NotIn", "values": []any{"fe"}}}}, false},
		{"DoesNotExist", map[string]any{"matchExpressions": []any{map[string]any{"key": "x", "operator": "DoesNotExist"}}}, true},
		{"unknown operator", map[string]any{"matchExpressions": []any{map[string]any{"key": "x", "operator": "Gt"}}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := matchesSelector(c.sel, labels); got != c.want {
				t.Errorf("got %v", got)
			}
		})
	}
}
