package receive

import (
	"github.com/skillgit/skillgit/gitstore"
)

// shortID cuts a commit id to the twelve digits messages show.
func shortID(h gitstore.Hash) string { return h.String()[:12] }
