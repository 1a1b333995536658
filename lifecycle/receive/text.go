package receive

import (
	"strings"

	"github.com/skillgit/skillgit/gitstore"
)

// short turns refs/heads/main into main for messages.
func short(ref string) string { return strings.TrimPrefix(ref, "refs/heads/") }

// shortID cuts a commit id to the twelve digits messages show.
func shortID(h gitstore.Hash) string { return h.String()[:12] }
