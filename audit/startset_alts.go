package audit

import (
	"regexp/syntax"
	"slices"
	"strings"
)

// A pattern that is an alternation of many phrasings, as the rules of a class of injection in
// several languages are, costs at each place it is tried the work of starting every
// alternative. Its alternatives are kept apart instead: at a place where texts begin, only
// the alternatives those texts begin are tried, in their order in the pattern. That finds
// the same match: an alternative none of whose texts begins there cannot match there, and
// of those that can, the pattern prefers the first that matches.

// startAlt is one alternative of a pattern, compiled when it is first tried.
type startAlt struct {
	head, after *lazyRegexp // as starts.head and starts.after, for the alternative alone
	groups      []int       // the pattern's number of each group of the alternative, in order
}

// maxAltTries bounds the alternatives tried at one place; past it the whole pattern is tried.
const maxAltTries = 32

// alternativeStarts returns the texts of each top-level alternative of the pattern src,
// marked with the alternative's index, and the alternatives; nil when src is no alternation
// or some alternative has no texts.
func alternativeStarts(src string) ([]starts1, []startAlt) {
	parts, ok := splitAlternatives(src)
	if !ok || len(parts) < 2 {
		return nil, nil
	}
	var set []starts1
	alts := make([]startAlt, 0, len(parts))
	flags, group := "", 0
	// Each alternative has its share of the texts, so that one with many short ones leaves
	// the others theirs.
	budget := max(16, maxStartLits/len(parts))
	for i, part := range parts {
		lead := leadingFlags(part)
		part = flags + part
		flags += lead
		re, err := syntax.Parse(part, syntax.Perl)
		if err != nil {
			return nil, nil
		}
		s, _, ok := prefixes(re.Simplify(), maxStartLen)
		if ok && len(s) > budget {
			s, ok = shortened(s, budget)
		}
		if !ok || len(s) == 0 {
			return nil, nil
		}
		for _, e := range s {
			e.alt = int32(i)
			set = append(set, e)
		}
		alt := startAlt{head: lazy(`^(?:` + part + `)`), after: lazy(`^(?s:.)(?:` + part + `)`)}
		for range re.MaxCap() {
			group++
			alt.groups = append(alt.groups, group)
		}
		alts = append(alts, alt)
	}
	if len(set) > maxStartLits {
		if set, ok = shortened(set, maxStartLits); !ok {
			return nil, nil
		}
	}
	return set, alts
}

// splitAlternatives cuts src at each "|" outside groups and classes. It reports false for a
// pattern it does not read plainly: quoted text, a flag group other than at the start of an
// alternative (whose flags would reach into the alternatives after it), or unbalanced groups.
func splitAlternatives(src string) ([]string, bool) {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '\\':
			if i+1 < len(src) && src[i+1] == 'Q' {
				return nil, false
			}
			i++
		case '[':
			end := classEnd(src, i)
			if end < 0 {
				return nil, false
			}
			i = end
		case '(':
			if depth == 0 && i > start && isFlagGroup(src[i:]) && leadingFlags(src[start:]) != src[start:i] {
				return nil, false
			}
			depth++
		case ')':
			if depth--; depth < 0 {
				return nil, false
			}
		case '|':
			if depth == 0 {
				parts = append(parts, src[start:i])
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, false
	}
	return append(parts, src[start:]), true
}

// classEnd returns the index of the "]" that closes the class opening at src[i], or -1.
func classEnd(src string, i int) int {
	j := i + 1
	if j < len(src) && src[j] == '^' {
		j++
	}
	if j < len(src) && src[j] == ']' {
		j++
	}
	for ; j < len(src); j++ {
		switch {
		case src[j] == '\\':
			j++
		case src[j] == '[' && j+1 < len(src) && src[j+1] == ':':
			if k := strings.Index(src[j+2:], ":]"); k >= 0 {
				j += k + 3
			}
		case src[j] == ']':
			return j
		}
	}
	return -1
}

// isFlagGroup reports whether s begins with a group that only sets flags, such as "(?i)".
func isFlagGroup(s string) bool {
	if !strings.HasPrefix(s, "(?") {
		return false
	}
	for j := 2; j < len(s); j++ {
		switch c := s[j]; {
		case c == ')':
			return j > 2
		case c == '-' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		default:
			return false
		}
	}
	return false
}

// leadingFlags returns the flag groups an alternative begins with, such as "(?i)".
func leadingFlags(part string) string {
	n := 0
	for isFlagGroup(part[n:]) {
		n += strings.IndexByte(part[n:], ')') + 1
	}
	return part[:n]
}

// altMatchAt is matchAt for a pattern whose alternatives are kept apart.
func (st *starts) altMatchAt(b []byte, p int, submatches bool) []int {
	var buf [maxAltTries]int32
	tries := buf[:0]
	for _, e := range st.lits[b[p]] {
		if !hasPrefix(b[p:], e.lit, e.fold) || e.word && p > 0 && isWordByte(b[p-1]) || slices.Contains(tries, e.alt) {
			continue
		}
		if len(tries) == maxAltTries {
			re, from := st.head, p
			if p > 0 {
				re, from = st.after, p-1
			}
			return matchFrom(re.get(), b, p, from, submatches)
		}
		tries = append(tries, e.alt)
	}
	slices.Sort(tries)
	for _, a := range tries {
		alt := &st.alts[a]
		re, from := alt.head, p
		if p > 0 {
			re, from = alt.after, p-1
		}
		if loc := matchFrom(re.get(), b, p, from, submatches); loc != nil {
			if submatches {
				return st.spread(alt, loc)
			}
			return loc
		}
	}
	return nil
}

// spread places the submatches of an alternative where the whole pattern numbers them.
func (st *starts) spread(alt *startAlt, loc []int) []int {
	out := make([]int, 2*(st.ngroups+1))
	for i := range out {
		out[i] = -1
	}
	out[0], out[1] = loc[0], loc[1]
	for j, g := range alt.groups {
		out[2*g], out[2*g+1] = loc[2*(j+1)], loc[2*(j+1)+1]
	}
	return out
}
