package corev1_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/core/builtin/internal/vtest"
)

const configKeyMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"

func TestValidateConfigMap(t *testing.T) {
	cm := func(rest string) string {
		return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"d"}` + rest + `}`
	}
	frozen := cm(`,"immutable":true,"data":{"a":"1"}`)
	vtest.Run(t, "", "configmaps", []vtest.Case{
		{Name: "valid", Obj: cm(`,"data":{"a.conf":"x","B_KEY":"y"},"binaryData":{"bin":"eHl6"}`)},
		{Name: "keys", Obj: cm(`,"data":{"bad key":"v","..":"w","a":"x"},"binaryData":{"a":"eHl6"}`), Want: []string{
			`data[..]: Invalid value: "..": must not be '..'`,
			`data[a]: Invalid value: "a": duplicate of key present in binaryData`,
			`data[bad key]: Invalid value: "bad key": ` + configKeyMsg}},
		{Name: "immutable unchanged", Obj: frozen, Old: frozen},
		{Name: "immutable data frozen", Obj: cm(`,"immutable":true,"data":{"a":"2"}`), Old: frozen, Want: []string{
			"data: Forbidden: field is immutable when `immutable` is set"}},
		{Name: "immutable stays set", Obj: cm(`,"data":{"a":"1"}`), Old: frozen, Want: []string{
			"immutable: Forbidden: field is immutable when `immutable` is set"}},
	})
}

func TestValidateSecret(t *testing.T) {
	secret := func(rest string) string {
		return `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","namespace":"d"}` + rest + `}`
	}
	vtest.Run(t, "", "secrets", []vtest.Case{
		{Name: "valid", Obj: secret(`,"data":{"password":"aHVudGVyMg=="}`)},
		{Name: "tls needs its keys", Obj: secret(`,"type":"kubernetes.io/tls","data":{"bad/key":"eHl6"}`), Want: []string{
			`data[bad/key]: Invalid value: "bad/key": ` + configKeyMsg,
			"data[tls.crt]: Required value", "data[tls.key]: Required value"}},
		{Name: "stringData keys count", Obj: secret(`,"type":"kubernetes.io/basic-auth","stringData":{"username":"u"}`)},
		{Name: "basic-auth", Obj: secret(`,"type":"kubernetes.io/basic-auth"`), Want: []string{
			"data[username]: Required value", "data[password]: Required value"}},
		{Name: "type is immutable", Obj: secret(`,"type":"example.com/x"`), Old: secret(``), Want: []string{
			`type: Invalid value: "example.com/x": field is immutable`}},
	})
}

func TestValidateNamespace(t *testing.T) {
	vtest.Run(t, "", "namespaces", []vtest.Case{
		{Name: "valid", Obj: `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"},"spec":{"finalizers":["example.com/x"]}}`},
		{Name: "finalizer names", Obj: `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"},"spec":{"finalizers":["mine"]}}`, Want: []string{
			`spec.finalizers: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified`}},
	})
}
