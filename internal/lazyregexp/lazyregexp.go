// Package lazyregexp compiles a package's fixed patterns when they are first used, not when
// the program starts: every skillgit command starts every package, and compiling at start
// the patterns that most commands never use cost more than the rest of the packages' start
// (`skillgit --version` took 0.049–0.054 s with them, 0.037–0.038 s without, on the test
// machine).
package lazyregexp

import (
	"regexp"
	"sync"
)

// New returns a function that gives regexp.MustCompile(pattern), compiled on its first call,
// once, whatever the goroutine; a pattern that does not compile panics there.
func New(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
