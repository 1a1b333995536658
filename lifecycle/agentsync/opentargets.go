package agentsync

import (
	"os"
	"slices"
	"strings"

	"github.com/skillgit/skillgit/targetdir"
)

// openedTargets holds the target folders a sync opened while it read the source: their
// mutexes taken, manifests read and installed skills checked (targetdir.Open), which needs
// nothing of the source. Folders are opened in the order of their paths, as planTargets takes
// their mutexes, and the opening stops at the first folder that does not exist yet: it is created only
// once the source has been read, so that a sync that fails on its source leaves no folder
// behind, and the folders after it are opened then, keeping the order.
type openedTargets struct {
	done  chan struct{}
	plans []*targetdir.Folder // by target; nil where not opened
	errs  []error             // by target; the error opening it gave
}

// openTargets starts opening the targets of a request; wait for them with take.
func (r *repo) openTargets(targets []Target, req Request) *openedTargets {
	o := &openedTargets{done: make(chan struct{}), plans: make([]*targetdir.Folder, len(targets)), errs: make([]error, len(targets))}
	opts := r.syncOptions(req)
	go func() {
		defer close(o.done)
		for _, i := range targetOrder(targets) {
			if info, err := os.Stat(targets[i].Dir); err != nil || !info.IsDir() {
				return
			}
			o.plans[i], o.errs[i] = targetdir.Open(targets[i].Dir, opts)
			if o.errs[i] != nil {
				return
			}
		}
	}()
	return o
}

// take waits for the opening to end and hands over what it opened; the plans are the
// caller's to close from then on.
func (o *openedTargets) take() ([]*targetdir.Folder, []error) {
	if o == nil {
		return nil, nil
	}
	<-o.done
	plans, errs := o.plans, o.errs
	o.plans, o.errs = nil, nil
	return plans, errs
}

// close waits for the opening to end and closes what was not handed over.
func (o *openedTargets) close() {
	plans, _ := o.take()
	closePlans(plans)
}

// targetOrder lists the indexes of targets in the order of their folders' paths.
func targetOrder(targets []Target) []int {
	order := make([]int, len(targets))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(targets[a].Dir, targets[b].Dir) })
	return order
}
