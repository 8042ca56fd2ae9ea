// Package translations loads kubectl's default (English) messages the
// cheap way. Upstream's first i18n.T — run by package inits, e.g.
// k8s.io/kubectl/pkg/cmd/options — zips kubectl's default k8s.po and
// k8s.mo with deflate and parses the .po text: natively 25 ms, in the
// browser (kubectl.wasm, V8 tiering the zip and parser code up) 1-2.5 s
// of a first command's start. Here the same catalogue is read from a .mo
// (binary, no zip): default.mo is upstream's default k8s.po compiled by
// gettext-go's encoder (`go test ./internal/translations -update` writes
// it; the test fails when it is stale), so i18n.T answers exactly as
// upstream's (the test compares every message, singular and plural).
//
// Importing the package is all (kubectl's root package does it): its init
// runs before any package that calls i18n.T — Go initialises, among the
// packages whose imports are ready, the lexically smallest path first, and
// github.com/kubesandbox/… sorts before k8s.io/kubectl/… — and installs
// Load with i18n.SetLoadTranslationsFunc. When LC_ALL, LC_MESSAGES or LANG
// is set (a native kubectl in a shell), Load is upstream's
// i18n.LoadTranslations, which picks the language; the browser sets none.
package translations

import (
	_ "embed"
	"errors"
	"os"
	"sync/atomic"

	"github.com/chai2010/gettext-go"
	"k8s.io/kubectl/pkg/util/i18n"
)

//go:embed default.mo
var defaultMO []byte

// loaded counts Load's calls (the test checks that i18n.T ran it).
var loaded atomic.Int32

func init() {
	// It fails only when an earlier package init already ran i18n.T: then
	// upstream's catalogue is loaded, which is as right, only slower
	// (TestLoadRunsFirst catches that).
	_ = i18n.SetLoadTranslationsFunc(Load)
}

// Load binds kubectl's message catalogue as upstream's
// i18n.LoadTranslations("kubectl", nil) does: domain "k8s", language
// "default" when no locale variable is set (from the .mo), else upstream's
// own choice and files.
func Load() error {
	loaded.Add(1)
	if os.Getenv("LC_ALL") != "" || os.Getenv("LC_MESSAGES") != "" || os.Getenv("LANG") != "" {
		return i18n.LoadTranslations("kubectl", nil)
	}
	gettext.BindLocale(gettext.New("k8s", "kubectl.zip", moFS{}))
	gettext.SetDomain("k8s")
	gettext.SetLanguage("default")
	return nil
}

// moFS is a gettext.FileSystem holding one file: k8s.mo of language
// "default" (gettext asks for .po first, then .mo).
type moFS struct{}

var errNotHere = errors.New("not in kubectl's default translations")

func (moFS) LocaleList() []string { return []string{"default"} }
func (moFS) LoadMessagesFile(domain, lang, ext string) ([]byte, error) {
	if domain == "k8s" && lang == "default" && ext == ".mo" {
		return defaultMO, nil
	}
	return nil, errNotHere
}
func (moFS) LoadResourceFile(domain, lang, name string) ([]byte, error) { return nil, errNotHere }
func (moFS) String() string                                             { return "kubectl.zip" }
