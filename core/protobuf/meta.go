package protobuf

import (
	_ "embed"
	"sync"

	"github.com/kubesandbox/kubesandbox/core/schema"
)

// metaJSON holds the generated descriptions of the meta.k8s.io messages
// of responses (ListMeta, Status, WatchEvent, PartialObjectMetadata and
// what they reach), written by reference/cmd/genschema.
//
//go:embed meta.json
var metaJSON []byte

var (
	metaOnce sync.Once
	metaDefs map[string]*schema.Schema
)

// Meta is the schema of the meta.k8s.io/v1 message name ("Status",
// "ListMeta", "WatchEvent", "PartialObjectMetadata",
// "PartialObjectMetadataList"), or nil.
func Meta(name string) *schema.Schema {
	metaOnce.Do(func() {
		metaDefs, _ = schema.Load(metaJSON) // fresh and valid: see the package tests
	})
	return metaDefs["io.k8s.apimachinery.pkg.apis.meta.v1."+name]
}

// ListOf is the schema of a list whose items have schema item. Every
// built-in list is {metadata = 1 ListMeta, items = 2 repeated item}, the
// layout of the generated PartialObjectMetadataList (reference/roundtrip
// checks it against each kind's List type).
func ListOf(item *schema.Schema) *schema.Schema {
	l := Meta("PartialObjectMetadataList")
	if l == nil {
		return nil
	}
	props := map[string]*schema.Schema{}
	for k, v := range l.Properties {
		props[k] = v
	}
	props["items"] = &schema.Schema{Type: "array", Items: item}
	return &schema.Schema{Type: "object", Properties: props, Proto: l.Proto}
}
