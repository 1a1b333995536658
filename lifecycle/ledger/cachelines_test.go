package ledger

import (
	"fmt"
	"strings"
	"testing"
)

// TestCacheLines checks that a line is found the same by search and through the index: the
// last line of a commit counts, an id inside another line is no line of its own, and a line
// added since the file was read comes first.
func TestCacheLines(t *testing.T) {
	id := func(n int) string { return fmt.Sprintf("%040x", n) }
	var text strings.Builder
	for n := range 100 {
		fmt.Fprintf(&text, "%s commit %d\n", id(n), n)
	}
	text.WriteString(id(7) + " publish again\n")          // a second line of commit 7
	text.WriteString("torn " + id(200) + " rollback x\n") // commit 200 only inside a line
	text.WriteString(id(300) + " publish, the last line without its newline")
	want := map[string]string{
		id(0): id(0) + " commit 0", id(7): id(7) + " publish again", id(99): id(99) + " commit 99",
		id(300): id(300) + " publish, the last line without its newline", id(200): "", id(400): "",
	}
	c := &cacheLines{text: text.String(), added: map[string]string{}}
	c.add(id(5), id(5)+" added")
	want[id(5)] = id(5) + " added"
	for round := range 2 { // first by search, then, past indexAfter questions, through the index
		if round == 1 {
			for range indexAfter {
				c.get(id(1))
			}
		}
		for key, line := range want {
			got, ok := c.get(key)
			if got != line || ok != (line != "") {
				t.Errorf("round %d: line of %s: %q, %v; want %q", round, key[36:], got, ok, line)
			}
		}
	}
	if c.index == nil {
		t.Fatal("no index after many questions")
	}
	if all := c.all(); len(all) != 101 {
		t.Errorf("all holds %d lines; want one per commit, 101", len(all))
	}
}
