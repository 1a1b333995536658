package auditrun

import (
	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
)

// Accepted are the findings accepted for one skill folder of a push, and the name they were
// accepted under when the folder was published under another (publish --as).
type Accepted struct {
	Allows []audit.Allow
	As     string
}

// withPushedAccepts gives each item the findings accepted for it in the pushed range.
func (r *Runner) withPushedAccepts(items []Item, base, head gitstore.Hash) error {
	if len(items) == 0 || r.Accepts == nil {
		return nil
	}
	accepts, err := r.Accepts(base, head)
	if err != nil {
		return err
	}
	for i := range items {
		a := accepts[items[i].Path]
		items[i].Accepted, items[i].FindingsAs = a.Allows, a.As
	}
	return nil
}
