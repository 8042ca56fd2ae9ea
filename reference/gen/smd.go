package gen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// smdSources are the generated server-side-apply schemas we read: the same
// list-type / map-type data the real server's OpenAPI carries, published as
// the schemaYAML variable of each module's applyconfiguration internal
// package (an internal package, so we parse the source file instead of
// importing it).
var smdSources = []struct{ module, file string }{
	{"k8s.io/client-go", "applyconfigurations/internal/internal.go"},
	{"k8s.io/apiextensions-apiserver", "pkg/client/applyconfiguration/internal/internal.go"},
}

// smdTypes maps an OpenAPI definition name, e.g.
// "io.k8s.api.core.v1.PodSpec", to its SMD type definition.
type smdTypes map[string]*smdschema.TypeDef

// loadSMD reads every smdSources schema. It runs `go list -m` in the
// current directory, which must be inside the reference module.
func loadSMD() (smdTypes, error) {
	out := smdTypes{}
	for _, src := range smdSources {
		dir, err := moduleDir(src.module)
		if err != nil {
			return nil, err
		}
		text, err := schemaYAML(filepath.Join(dir, src.file))
		if err != nil {
			return nil, err
		}
		p, err := typed.NewParser(typed.YAMLObject(text))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", src.module, err)
		}
		for i := range p.Schema.Types {
			td := &p.Schema.Types[i]
			if _, dup := out[td.Name]; !dup {
				out[td.Name] = td
			}
		}
	}
	return out, nil
}

func moduleDir(module string) (string, error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list -m %s: %v", module, err)
	}
	dir := strings.TrimSpace(string(b))
	if dir == "" {
		return "", fmt.Errorf("go list -m %s: module not downloaded", module)
	}
	return dir, nil
}

// schemaYAML extracts the string literal assigned to `var schemaYAML`.
func schemaYAML(path string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return "", err
	}
	var lit *ast.BasicLit
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "schemaYAML" || len(vs.Values) != 1 {
			return true
		}
		ast.Inspect(vs.Values[0], func(n ast.Node) bool {
			if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING && lit == nil {
				lit = bl
			}
			return lit == nil
		})
		return false
	})
	if lit == nil {
		return "", fmt.Errorf("%s: no schemaYAML literal", path)
	}
	return strconv.Unquote(lit.Value)
}

// field returns the SMD description of field name of struct type typeName.
func (s smdTypes) field(typeName, name string) (*smdschema.StructField, bool) {
	td := s[typeName]
	if td == nil || td.Map == nil {
		return nil, false
	}
	for i := range td.Map.Fields {
		if td.Map.Fields[i].Name == name {
			return &td.Map.Fields[i], true
		}
	}
	return nil, false
}

// jsonValue turns a YAML-decoded default into the JSON form core/jsonx
// uses: map[string]any, []any, int64, float64, string, bool.
func jsonValue(v any) (any, error) {
	switch v := v.(type) {
	case nil, string, bool, float64:
		return v, nil
	case int:
		return int64(v), nil
	case int64:
		return v, nil
	case uint64:
		return int64(v), nil
	case float32:
		return float64(v), nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			j, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = j
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			j, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = j
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("non-string key %v", k)
			}
			j, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[ks] = j
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported default %T", v)
}

// structAtomic reports whether SMD marks a struct type atomic
// (+structType=atomic, published as x-kubernetes-map-type: atomic).
func (s smdTypes) structAtomic(typeName string) bool {
	td := s[typeName]
	return td != nil && td.Map != nil && td.Map.ElementRelationship == smdschema.Atomic
}
