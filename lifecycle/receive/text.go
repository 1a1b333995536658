package receive

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// refusedCommit says that commit h, c, is refused and why, naming it by its id and subject.
func refusedCommit(h gitstore.Hash, c *object.Commit, why string) string {
	subject, _, _ := ledger.CutSubject(c.Message)
	return fmt.Sprintf("commit %s (%q) %s", shortID(h.String()), bounded(subject, 72), why)
}

// short turns refs/heads/main into main for messages.
func short(ref string) string { return strings.TrimPrefix(ref, "refs/heads/") }

// shortID cuts a commit id to the twelve digits messages show.
func shortID(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// bounded cuts s to at most n bytes at a rune boundary, marking the cut.
func bounded(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
