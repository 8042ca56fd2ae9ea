package smdlazy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hunks are the only changes parser.go.in makes to upstream's
// typed/parser.go (v4.7.0): each upstream text occurs exactly once and is
// replaced by ours.
var hunks = []struct{ name, upstream, ours string }{
	{"import sync", "import (\n\t\"fmt\"\n", "import (\n\t\"fmt\"\n\t\"sync\"\n"},
	{"ssParser on first use",
		"var ssParser = createOrDie(YAMLObject(schema.SchemaSchemaYAML))\n",
		`// kubesandbox (wasm/smdlazy): parsed on first use, not at package init.
var (
	ssParserOnce sync.Once
	ssParserP    *Parser
)

func ssParser() *Parser {
	ssParserOnce.Do(func() { ssParserP = createOrDie(YAMLObject(schema.SchemaSchemaYAML)) })
	return ssParserP
}
`},
	{"NewParser calls ssParser()",
		"\t_, err := ssParser.Type(\"schema\").FromYAML(schema)",
		"\t_, err := ssParser().Type(\"schema\").FromYAML(schema)"},
	{"DeducedParseableType in Go", "var DeducedParseableType ParseableType = createOrDie(YAMLObject(`" + deducedYAML + "`)).Type(\"__untyped_deduced_\")\n",
		`// kubesandbox (wasm/smdlazy): upstream's YAML, written as Go so that
// package init parses no YAML.
var DeducedParseableType ParseableType = (&Parser{Schema: schema.Schema{Types: []schema.TypeDef{
	deducedTypeDef("__untyped_atomic_", "__untyped_atomic_", schema.Atomic),
	deducedTypeDef("__untyped_deduced_", "__untyped_deduced_", schema.Separable),
}}}).Type("__untyped_deduced_")

// deducedTypeDef is one type of DeducedParseableType's schema: an untyped
// scalar, an atomic list of __untyped_atomic_, and a map of mapElem with
// relationship mapRel.
func deducedTypeDef(name, mapElem string, mapRel schema.ElementRelationship) schema.TypeDef {
	untyped, atomic := schema.Untyped, "__untyped_atomic_"
	return schema.TypeDef{Name: name, Atom: schema.Atom{
		Scalar: &untyped,
		List:   &schema.List{ElementType: schema.TypeRef{NamedType: &atomic}, ElementRelationship: schema.Atomic},
		Map:    &schema.Map{ElementType: schema.TypeRef{NamedType: &mapElem}, ElementRelationship: mapRel},
	}}
}
`},
}

// deducedYAML is upstream's schema of DeducedParseableType.
const deducedYAML = `types:
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_deduced_
    elementRelationship: separable
`

// upstreamDir is the module cache's copy of the version go.mod requires.
func upstreamDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/structured-merge-diff/v4").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func TestParserIsUpstreamWithTheListedHunks(t *testing.T) {
	up, err := os.ReadFile(filepath.Join(upstreamDir(t), "typed", "parser.go"))
	if err != nil {
		t.Fatal(err)
	}
	ours, err := os.ReadFile("parser.go.in")
	if err != nil {
		t.Fatal(err)
	}
	got := string(up)
	for _, h := range hunks {
		t.Run(h.name, func(t *testing.T) {
			if n := strings.Count(got, h.upstream); n != 1 {
				t.Fatalf("upstream text occurs %d times, want 1:\n%s", n, h.upstream)
			}
			if !strings.Contains(string(ours), h.ours) {
				t.Fatalf("parser.go.in lacks the replacement:\n%s", h.ours)
			}
			got = strings.Replace(got, h.upstream, h.ours, 1)
		})
	}
	if got != string(ours) {
		t.Errorf("parser.go.in differs from upstream beyond the listed hunks; upstream with the hunks applied:\n%s", got)
	}
}

// deducedTest is added to the patched copy's typed package: the Go schema
// is upstream's YAML (compared through goyaml, which ignores the caches'
// unexported fields), and the lazily parsed schema-of-schemas still
// validates (NewParser) and rejects.
const deducedTest = `package typed

import (
	"testing"

	yaml "sigs.k8s.io/yaml/goyaml.v2"
)

func TestKubesandboxDeducedSchemaIsUpstreamYAML(t *testing.T) {
	want, err := create(YAMLObject(KUBESANDBOX_YAML))
	if err != nil {
		t.Fatal(err)
	}
	w, _ := yaml.Marshal(want.Schema.Types)
	g, _ := yaml.Marshal(DeducedParseableType.Schema.Types)
	if string(w) != string(g) {
		t.Errorf("deduced schema:\n%s\nupstream:\n%s", g, w)
	}
	if name := *DeducedParseableType.TypeRef.NamedType; name != "__untyped_deduced_" {
		t.Errorf("type %q", name)
	}
}

func TestKubesandboxNewParserValidates(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		ok           bool
	}{
		{"valid", "types:\n- name: a\n  scalar: string\n", true},
		{"invalid", "types:\n- name: a\n  bogus: 1\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewParser(YAMLObject(tc.schema))
			if (err == nil) != tc.ok {
				t.Errorf("NewParser: %v, want ok=%v", err, tc.ok)
			}
		})
	}
}
`

// TestUpstreamTestsPassOnTheCopy runs upstream's tests of the typed
// package (and deducedTest) on the copy prepare.sh makes, natively.
func TestUpstreamTestsPassOnTheCopy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests the patched copy")
	}
	out := t.TempDir()
	if b, err := exec.Command("sh", "prepare.sh", out).CombinedOutput(); err != nil {
		t.Fatalf("prepare.sh: %v\n%s", err, b)
	}
	src := strings.Replace(deducedTest, "KUBESANDBOX_YAML", "`"+deducedYAML+"`", 1)
	if err := os.WriteFile(filepath.Join(out, "structured-merge-diff", "typed", "kubesandbox_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-modfile="+filepath.Join(out, "wasm.mod"),
		"sigs.k8s.io/structured-merge-diff/v4/typed", "-run", ".", "-v")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test on the copy: %v\n%s", err, b)
	}
	for _, name := range []string{"TestKubesandboxDeducedSchemaIsUpstreamYAML", "TestKubesandboxNewParserValidates/invalid"} {
		if !strings.Contains(string(b), "--- PASS: "+name) {
			t.Errorf("%s did not run:\n%s", name, b)
		}
	}
}

// yamlTest is added to prepare.sh's copy of go.yaml.in/yaml/v2 (whose own
// tests need gopkg.in/check.v1, not in our module graph): the two lazily
// compiled expressions still decide what they decided at init.
const yamlTest = `package yaml

import "testing"

func TestKubesandboxLazyRegexps(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want interface{}
	}{
		{"a: 1.5e3", 1500.0}, {"a: .5", 0.5}, {"a: -2.", -2.0}, {"a: 1e", "1e"}, {"a: 1.2.3", "1.2.3"},
	} {
		var m map[string]interface{}
		if err := Unmarshal([]byte(tc.in), &m); err != nil {
			t.Fatal(err)
		}
		if m["a"] != tc.want {
			t.Errorf("%s: %#v (%T), want %#v", tc.in, m["a"], m["a"], tc.want)
		}
	}
	for in, want := range map[string]string{"1:20": "\"1:20\"\n", "1:2x": "1:2x\n", "-1:30.5": "\"-1:30.5\"\n"} {
		b, err := Marshal(in)
		if err != nil || string(b) != want {
			t.Errorf("Marshal(%q) = %q, %v; want %q", in, b, err, want)
		}
	}
}
`

// TestYAMLCopyOnlyCompilesItsRegexpsLazily checks prepare.sh's copy of
// go.yaml.in/yaml/v2: resolve.go and encode.go are upstream's with the
// "regexp" import dropped and one regexp.MustCompile each made
// newLazyRegexp, and the copy decodes floats and quotes base-60 strings as
// upstream does (yamlTest, natively).
func TestYAMLCopyOnlyCompilesItsRegexpsLazily(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests the patched copy")
	}
	out := t.TempDir()
	if b, err := exec.Command("sh", "prepare.sh", out).CombinedOutput(); err != nil {
		t.Fatalf("prepare.sh: %v\n%s", err, b)
	}
	up, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "go.yaml.in/yaml/v2").Output()
	if err != nil {
		t.Fatal(err)
	}
	copyDir := filepath.Join(out, "yaml-v2")
	for file, variable := range map[string]string{"resolve.go": "yamlStyleFloat", "encode.go": "base60float"} {
		t.Run(file, func(t *testing.T) {
			u, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(up)), file))
			if err != nil {
				t.Fatal(err)
			}
			c, err := os.ReadFile(filepath.Join(copyDir, file))
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(string(u), "\t\"regexp\"\n", "", 1)
			old := "var " + variable + " = regexp.MustCompile("
			if strings.Count(want, old) != 1 || strings.Contains(strings.Replace(want, old, "", 1), "regexp.") {
				t.Fatalf("upstream %s: want exactly one regexp use, %s", file, old)
			}
			want = strings.Replace(want, old, "var "+variable+" = newLazyRegexp(", 1)
			if string(c) != want {
				t.Errorf("%s differs from upstream beyond the lazy regexp", file)
			}
		})
	}
	tests, _ := filepath.Glob(filepath.Join(copyDir, "*_test.go"))
	for _, f := range tests {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(copyDir, "kubesandbox_test.go"), []byte(yamlTest), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command("go", "test", "-count=1", "-modfile="+filepath.Join(out, "wasm.mod"), "go.yaml.in/yaml/v2", "-v").CombinedOutput()
	if err != nil || !strings.Contains(string(b), "--- PASS: TestKubesandboxLazyRegexps") {
		t.Fatalf("go test on the copy: %v\n%s", err, b)
	}
}

// TestHPKECopyPassesStdTests runs the standard library's tests of
// crypto/hpke on hpkelazy.mjs's copy (its KEMs built on first use).
func TestHPKECopyPassesStdTests(t *testing.T) {
	out := stdOverlay(t, "hpkelazy.mjs")
	b, err := exec.Command("go", "test", "-count=1", "-overlay="+filepath.Join(out, "overlay-test.json"), "crypto/hpke", "-v").CombinedOutput()
	if err != nil || !strings.Contains(string(b), "--- PASS: ") {
		t.Fatalf("go test crypto/hpke on the copy: %v\n%s", err, b)
	}
	kem, err := os.ReadFile(filepath.Join(out, "crypto", "hpke", "kem.go"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(kem), "var dhKEMP256 =") || !strings.Contains(string(kem), "func dhKEMP256() *dhKEM") {
		t.Errorf("kem.go: dhKEMP256 is not built on first use")
	}
}

// TestRegexpSyntaxCopyPassesStdTests runs the standard library's tests of
// regexp/syntax (\p{Greek}, \pL, \p{^Lu} … among them) on unicodelazy.mjs's
// copy, with its own test that the generated arrays give every key of
// unicode.Categories, Scripts and CategoryAliases the map's table.
func TestRegexpSyntaxCopyPassesStdTests(t *testing.T) {
	out := stdOverlay(t, "hpkelazy.mjs", "unicodelazy.mjs")
	b, err := exec.Command("go", "test", "-count=1", "-overlay="+filepath.Join(out, "overlay-test.json"), "regexp/syntax", "-v").CombinedOutput()
	if err != nil || !strings.Contains(string(b), "--- PASS: TestKubesandboxUnicodeTablesAreTheMaps") || !strings.Contains(string(b), "--- PASS: TestParseSimple") {
		t.Fatalf("go test regexp/syntax on the copy: %v\n%s", err, b)
	}
	parse, err := os.ReadFile(filepath.Join(out, "regexp", "syntax", "parse.go"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(parse), "unicode.Scripts[") || !strings.Contains(string(parse), "kubesandboxScript(name)") {
		t.Errorf("parse.go still looks names up in unicode.Scripts")
	}
}

// stdOverlay runs the standard-library patch scripts in order (as
// prepare.sh does: unicodelazy.mjs adds to hpkelazy.mjs's overlay) into a
// temporary folder and returns it (overlay.json, overlay-test.json and the
// patched copies); it skips in -short mode.
func stdOverlay(t *testing.T, scripts ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and tests the patched copy")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	for _, script := range scripts {
		if b, err := exec.Command("node", script, strings.TrimSpace(string(goroot)), out).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, b)
		}
	}
	return out
}
