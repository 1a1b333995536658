package audit

import (
	"regexp"
	"sync"
)

// lazyRegexp is a pattern compiled when it is first used, so that a command that audits
// nothing does not compile every pattern of the audit when it starts. It has the methods of
// *regexp.Regexp that the audit calls.
type lazyRegexp struct {
	once  sync.Once
	src   string
	exact bool // compiled as compilePattern(src, false) unless exact or plain
	plain bool // compiled by regexp.MustCompile
	re    *regexp.Regexp
}

// lazy is regexp.MustCompile(src), compiled on first use.
func lazy(src string) *lazyRegexp { return &lazyRegexp{src: src, plain: true} }

// lazyPattern is compilePattern(p, exact), compiled on first use.
func lazyPattern(p string, exact bool) *lazyRegexp { return &lazyRegexp{src: p, exact: exact} }

// get returns the compiled pattern.
func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() {
		if l.plain {
			l.re = regexp.MustCompile(l.src)
		} else {
			l.re = compilePattern(l.src, l.exact)
		}
	})
	return l.re
}

// The methods of *regexp.Regexp the audit calls, on the compiled pattern.

// Match is (*regexp.Regexp).Match.
func (l *lazyRegexp) Match(b []byte) bool { return l.get().Match(b) }

// MatchString is (*regexp.Regexp).MatchString.
func (l *lazyRegexp) MatchString(s string) bool { return l.get().MatchString(s) }

// FindIndex is (*regexp.Regexp).FindIndex.
func (l *lazyRegexp) FindIndex(b []byte) []int { return l.get().FindIndex(b) }

// FindSubmatch is (*regexp.Regexp).FindSubmatch.
func (l *lazyRegexp) FindSubmatch(b []byte) [][]byte { return l.get().FindSubmatch(b) }

// FindStringSubmatch is (*regexp.Regexp).FindStringSubmatch.
func (l *lazyRegexp) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }

// FindAll is (*regexp.Regexp).FindAll.
func (l *lazyRegexp) FindAll(b []byte, n int) [][]byte { return l.get().FindAll(b, n) }

// FindAllIndex is (*regexp.Regexp).FindAllIndex.
func (l *lazyRegexp) FindAllIndex(b []byte, n int) [][]int { return l.get().FindAllIndex(b, n) }

// FindAllString is (*regexp.Regexp).FindAllString.
func (l *lazyRegexp) FindAllString(s string, n int) []string { return l.get().FindAllString(s, n) }

// FindAllSubmatch is (*regexp.Regexp).FindAllSubmatch.
func (l *lazyRegexp) FindAllSubmatch(b []byte, n int) [][][]byte {
	return l.get().FindAllSubmatch(b, n)
}

// FindAllSubmatchIndex is (*regexp.Regexp).FindAllSubmatchIndex.
func (l *lazyRegexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return l.get().FindAllSubmatchIndex(b, n)
}

// ReplaceAllString is (*regexp.Regexp).ReplaceAllString.
func (l *lazyRegexp) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is (*regexp.Regexp).ReplaceAllStringFunc.
func (l *lazyRegexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return l.get().ReplaceAllStringFunc(src, repl)
}

// ReplaceAllFunc is (*regexp.Regexp).ReplaceAllFunc.
func (l *lazyRegexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return l.get().ReplaceAllFunc(src, repl)
}
