package translations_test

import (
	"testing"

	"github.com/kubesandbox/kubesandbox/kubectl/internal/translations"
	"k8s.io/kubectl/pkg/util/i18n"

	// a package of kubectl's command tree whose init calls i18n.T (its
	// examples), as kubectl's root package imports it
	_ "k8s.io/kubectl/pkg/cmd/options"
)

// TestLoadRunsFirst: the package inits that call i18n.T (options, imported
// above beside this package, as in kubectl's binaries) ran after this
// package's init, so they loaded the catalogue through Load.
func TestLoadRunsFirst(t *testing.T) {
	if translations.Loaded() == 0 {
		t.Fatal("i18n.T loaded kubectl's translations without Load: a package init called it before this package's init")
	}
	if got := i18n.T("Display one or many resources"); got != "Display one or many resources" {
		t.Errorf("i18n.T = %q", got)
	}
}
