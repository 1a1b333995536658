package genrepo

import (
	"fmt"
	"math/rand/v2"
)

// skillNames returns n distinct, valid skill names in a seeded order. The short domain-action
// names come first in the pool; past them, a qualifier and then a number keep names unique,
// so any n is possible.
func skillNames(r *rand.Rand, n int) []string {
	pool := make([]string, 0, len(domains)*len(actions))
	for _, d := range domains {
		for _, a := range actions {
			pool = append(pool, d+"-"+a)
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	seen := make(map[string]bool, n)
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		name := pool[i%len(pool)]
		if round := i / len(pool); round > 0 {
			name = decorate(name, round)
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// decorate makes the round-th variant of a base name.
func decorate(base string, round int) string {
	q := qualifiers[(round-1)%len(qualifiers)]
	if round <= len(qualifiers) {
		return base + "-" + q
	}
	return fmt.Sprintf("%s-%s-%d", base, q, round/len(qualifiers))
}
