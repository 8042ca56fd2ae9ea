//go:build !js

package builtin

// NameLoadedDefinitions names the built-in definitions loaded so far for
// schema.JSONTypeError (schema.Catalogue.NameLoaded): natively, a write's
// type check of the built-in kinds, without loading every definition.
func NameLoadedDefinitions() { definitions.NameLoaded() }
