// Command genschema writes core/builtin/schemas.json.
//
//	cd reference && go run ./cmd/genschema -out ../core/builtin/schemas.json
//
// It also writes zz_columndocs.go (printer column descriptions) and
// zz_zero.go (the typed zero objects of the root kinds) beside it, and
// ../protobuf/meta.json (the meta.k8s.io messages of protobuf responses) and
// descriptions.json (the definitions' documentation, see gen.Descriptions).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kubesandbox/kubesandbox/reference/gen"
)

func main() {
	out := flag.String("out", "../core/builtin/schemas.json", "schema document to write")
	docs := flag.String("docs", "", "Go file of printer column descriptions to write (default: zz_columndocs.go beside -out)")
	verbose := flag.Bool("v", false, "print disagreements between Go struct tags and the apply schema")
	flag.Parse()
	res, err := gen.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "genschema:", err)
		os.Exit(1)
	}
	b, err := res.Doc.Marshal()
	if err != nil {
		fmt.Fprintln(os.Stderr, "genschema:", err)
		os.Exit(1)
	}
	if *verbose {
		for _, w := range res.Warnings {
			fmt.Fprintln(os.Stderr, "warning:", w)
		}
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genschema:", err)
		os.Exit(1)
	}
	if *docs == "" {
		*docs = filepath.Join(filepath.Dir(*out), "zz_columndocs.go")
	}
	src, err := gen.ColumnDocsGo()
	if err != nil {
		fmt.Fprintln(os.Stderr, "genschema:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*docs, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genschema:", err)
		os.Exit(1)
	}
	zero, err := gen.ZeroGo()
	if err != nil {
		fmt.Fprintln(os.Stderr, "genschema:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(*out), "zz_zero.go"), zero, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genschema:", err)
		os.Exit(1)
	}
	meta, err := gen.GenerateMeta()
	if err == nil {
		var mb []byte
		if mb, err = meta.Marshal(); err == nil {
			err = os.WriteFile(filepath.Join(filepath.Dir(*out), "..", "protobuf", "meta.json"), mb, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genschema:", err)
		os.Exit(1)
	}
	descs, err := gen.Descriptions(res.Doc)
	if err == nil {
		var db []byte
		if db, err = gen.MarshalDescriptions(descs); err == nil {
			err = os.WriteFile(filepath.Join(filepath.Dir(*out), "descriptions.json"), db, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genschema:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "genschema: %d definitions, %d bytes, %d warnings -> %s\n", len(res.Doc.Definitions), len(b), len(res.Warnings), *out)
}
