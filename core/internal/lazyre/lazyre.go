// Package lazyre holds regular expressions that compile on first use:
// compiling every package-level expression at init cost start-up time in
// WebAssembly, where most of them are never needed. Used by core/schema
// (string formats) and core/validation (names and labels).
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on its first MatchString.
type Regexp struct {
	once sync.Once
	src  string
	re   *regexp.Regexp
}

// New returns src, to be compiled (with regexp.MustCompile) on first use.
func New(src string) *Regexp { return &Regexp{src: src} }

// MatchString reports whether s contains a match of the expression.
func (l *Regexp) MatchString(s string) bool {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re.MatchString(s)
}
