package validation

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles its expression on first use: compiling every
// package-level expression at init cost start-up time in WebAssembly,
// where most of them are never needed.
type lazyRegexp struct {
	once sync.Once
	src  string
	re   *regexp.Regexp
}

func lazyRE(src string) *lazyRegexp { return &lazyRegexp{src: src} }

func (l *lazyRegexp) MatchString(s string) bool {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re.MatchString(s)
}
