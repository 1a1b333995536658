package audit

import (
	"sync"
	"testing"
)

func TestLazyRegexpCompilesOnceAsGiven(t *testing.T) {
	plain := lazy(`(?i)Ab+c`)
	pattern := lazyPattern(`(?i)Ab+c`, false)
	exact := lazyPattern(`(?i)Ab+c`, true)
	if plain.re != nil || pattern.re != nil {
		t.Fatal("compiled before first use")
	}
	if got := plain.get().String(); got != `(?i)Ab+c` {
		t.Errorf("lazy = %s", got)
	}
	if got, want := pattern.get().String(), compilePattern(`(?i)Ab+c`, false).String(); got != want {
		t.Errorf("lazyPattern = %s, want %s", got, want)
	}
	if got, want := exact.get().String(), compilePattern(`(?i)Ab+c`, true).String(); got != want {
		t.Errorf("lazyPattern exact = %s, want %s", got, want)
	}
	l := lazy(`x+`)
	var wg sync.WaitGroup
	seen := make([]any, 8)
	for i := range seen {
		wg.Go(func() { seen[i] = l.get() })
	}
	wg.Wait()
	for _, re := range seen {
		if re != seen[0] {
			t.Fatal("concurrent first uses compiled the pattern more than once")
		}
	}
	if !pattern.MatchString("xabbc") || pattern.MatchString("ac") {
		t.Error("the lazy pattern does not match as the pattern does")
	}
}
