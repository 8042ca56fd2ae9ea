// Command gengotypes writes core/internal/gotypes/zz_table.go: the Go
// struct layout of k8s.io/api's v1.PodTemplateSpec (for the pod template
// hash, which go-spew prints from the Go value) and of the internal
// core.PodTemplateSpec of k8s.io/kubernetes (for validation messages that
// encoding/json prints from the internal value).
//
//	cd reference && go run ./cmd/gengotypes -out ../core/gotypes/zz_table.go
//
// The table has one line per type, "<spew name> <kind> <payload>", where
// a type is referred to by its line number:
//
//	struct  s Field,type,inKey,outKey,flags;…  (inKey: the external JSON key
//	          its value is read from; outKey: its own JSON key; flags: o
//	          omitempty, z omitzero, e embedded/inline, i inline in the
//	          external type, x unexported or json:"-")
//	pointer p elem      slice l elem      map m key,elem
//	basic   b <reflect kind>   special x q|i|t (Quantity, IntOrString, Time)
//
// Internal-only types carry "-" as their spew name (they are never spewed).
package main

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	core "k8s.io/kubernetes/pkg/apis/core"
)

type gen struct {
	idx      map[reflect.Type]int
	lines    []string
	external map[string]reflect.Type // v1 named types by name
	internal bool
	sameMemo map[[2]reflect.Type]bool
}

// counterpart is the k8s.io/api/core/v1 type of an internal type (by name,
// through pointers, slices and maps), or t itself.
func (g *gen) counterpart(t reflect.Type) reflect.Type {
	switch {
	case t.Name() != "" && strings.HasPrefix(t.PkgPath(), "k8s.io/kubernetes/"):
		if e, ok := g.external[t.Name()]; ok {
			return e
		}
	case t.Kind() == reflect.Pointer:
		return reflect.PointerTo(g.counterpart(t.Elem()))
	case t.Kind() == reflect.Slice:
		return reflect.SliceOf(g.counterpart(t.Elem()))
	case t.Kind() == reflect.Map:
		return reflect.MapOf(g.counterpart(t.Key()), g.counterpart(t.Elem()))
	}
	return t
}

// same tells whether the internal type it renders as JSON exactly like
// the external type et would in internal mode: the same fields in the same
// order with the same shapes, so that it can share et's line.
func (g *gen) same(it, et reflect.Type) bool {
	if it == et {
		return true
	}
	if it.Kind() != et.Kind() || specials[it] != "" || specials[et] != "" {
		return false
	}
	k := [2]reflect.Type{it, et}
	if v, ok := g.sameMemo[k]; ok {
		return v
	}
	g.sameMemo[k] = true
	ok := true
	switch it.Kind() {
	case reflect.Struct:
		if it.NumField() != et.NumField() || !strings.HasPrefix(it.PkgPath(), "k8s.io/kubernetes/") || et.PkgPath() != "k8s.io/api/core/v1" {
			ok = false
			break
		}
		for j := 0; j < it.NumField() && ok; j++ {
			fi, fe := it.Field(j), et.Field(j)
			key, opts, _ := strings.Cut(fe.Tag.Get("json"), ",")
			inlineE := key == "" && (fe.Anonymous || strings.Contains(opts, "inline"))
			ok = fi.Name == fe.Name && fi.Anonymous == inlineE && g.same(fi.Type, fe.Type)
		}
	case reflect.Pointer, reflect.Slice:
		ok = g.same(it.Elem(), et.Elem())
	case reflect.Map:
		ok = g.same(it.Key(), et.Key()) && g.same(it.Elem(), et.Elem())
	}
	g.sameMemo[k] = ok
	return ok
}

var specials = map[reflect.Type]string{
	reflect.TypeOf(resource.Quantity{}):  "q",
	reflect.TypeOf(intstr.IntOrString{}): "i",
	reflect.TypeOf(metav1.Time{}):        "t",
}

func (g *gen) add(t reflect.Type) int {
	if i, ok := g.idx[t]; ok {
		return i
	}
	if g.internal {
		if e := g.counterpart(t); e != t && g.same(t, e) {
			g.internal = false
			i := g.add(e)
			g.internal = true
			g.idx[t] = i
			return i
		}
	}
	i := len(g.lines)
	g.idx[t] = i
	g.lines = append(g.lines, "")
	name := t.String()
	if g.internal && strings.HasPrefix(t.PkgPath(), "k8s.io/kubernetes/") {
		name = "-"
	}
	if t.Name() == "" && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map) || t.Name() == t.Kind().String() {
		name = "" // derived from the element type(s), or the kind
	}
	if t.Name() != "" && t.PkgPath() == "k8s.io/api/core/v1" {
		g.external[t.Name()] = t
	}
	var line string
	if s, ok := specials[t]; ok {
		line = name + " x " + s
	} else {
		switch t.Kind() {
		case reflect.Struct:
			var ext reflect.Type
			if g.internal {
				ext = g.external[t.Name()]
			}
			var fs []string
			for j := 0; j < t.NumField(); j++ {
				f := t.Field(j)
				tag := f.Tag.Get("json")
				key, opts, _ := strings.Cut(tag, ",")
				flags := ""
				if strings.HasPrefix(t.PkgPath(), "k8s.io/apimachinery/") { // only their JSON keys are ever written
					if strings.Contains(opts, "omitempty") {
						flags += "o"
					}
					if strings.Contains(opts, "omitzero") {
						flags += "z"
					}
				}
				if key == "" && (f.Anonymous || strings.Contains(opts, "inline")) {
					flags += "e"
				}
				if !f.IsExported() {
					flags += "x"
				}
				in := key
				if g.internal && name == "-" {
					if key != "" {
						panic(fmt.Sprintf("%s.%s has a json tag", t, f.Name))
					}
					in = ""
					if src, ok := ext.FieldByName(f.Name); ext != nil && ok {
						var srcOpts string
						in, srcOpts, _ = strings.Cut(src.Tag.Get("json"), ",")
						if in == "" && (src.Anonymous || strings.Contains(srcOpts, "inline")) {
							flags += "i"
						}
					} else {
						flags += "n" // no external counterpart: always zero
					}
				}
				if key == "-" {
					flags += "x"
				}
				ti := g.add(f.Type)
				if in == lowerFirst(f.Name) {
					in = ""
				}
				fs = append(fs, strings.TrimRight(fmt.Sprintf("%s,%d,%s,%s", f.Name, ti, dedupe(flags), in), ","))
			}
			kind := " s "
			if strings.HasPrefix(t.PkgPath(), "k8s.io/apimachinery/") {
				kind = " S "
			}
			line = name + kind + strings.Join(fs, ";")
		case reflect.Pointer:
			line = fmt.Sprintf("%s p %d", name, g.add(t.Elem()))
		case reflect.Slice:
			line = fmt.Sprintf("%s l %d", name, g.add(t.Elem()))
		case reflect.Map:
			k := g.add(t.Key())
			line = fmt.Sprintf("%s m %d,%d", name, k, g.add(t.Elem()))
		default:
			line = name + " b " + t.Kind().String()
		}
	}
	g.lines[i] = line
	return i
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func dedupe(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !strings.ContainsRune(b.String(), r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func main() {
	out := flag.String("out", "../core/gotypes/zz_table.go", "Go file to write")
	flag.Parse()
	g := &gen{idx: map[reflect.Type]int{}, external: map[string]reflect.Type{}, sameMemo: map[[2]reflect.Type]bool{}}
	ext := g.add(reflect.TypeOf(v1.PodTemplateSpec{}))
	g.internal = true
	in := g.add(reflect.TypeOf(core.PodTemplateSpec{}))
	var b strings.Builder
	b.WriteString("// Code generated by reference/cmd/gengotypes; DO NOT EDIT.\n\n//go:build !js\n\npackage gotypes\n\n")
	fmt.Fprintf(&b, "// Roots of table: v1.PodTemplateSpec and the internal core.PodTemplateSpec and core.PodSpec.\nconst (\n\tPodTemplateSpec         = %d\n\tInternalPodTemplateSpec = %d\n\tInternalPodSpec         = %d\n)\n\n",
		ext, in, g.idx[reflect.TypeOf(core.PodSpec{})])
	b.WriteString("const table = `" + strings.Join(g.lines, "\n") + "`\n")
	if err := os.WriteFile(*out, []byte(b.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
