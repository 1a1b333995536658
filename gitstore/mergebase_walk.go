package gitstore

import (
	"cmp"
	"container/heap"
	"slices"
)

// Paint flags of an ancestry walk, as in git's commit-reach.c.
const (
	fromA  = 1 << iota // reachable from the first commit
	fromB              // reachable from the second commit
	stale              // an ancestor of a common ancestor already found
	result             // a common ancestor found by the walk
)

// walkNode is a commit met by an ancestry walk.
type walkNode struct {
	id      Hash
	parents []Hash
	when    int64 // committer time, seconds since the epoch
	flags   uint8
	queued  int // entries for this commit in the queue
}

// ancestryWalk paints commits with the starting commits they are
// reachable from, newest committer date first.
type ancestryWalk struct {
	r        *Objects
	nodes    map[Hash]*walkNode
	queue    nodeQueue
	nonStale int // queue entries whose commit is not stale
	shallow  map[Hash]bool
	results  []*walkNode
	// reaches, when set, are commits known to reach the target of the walk: a walk from b
	// that meets one of them has found the target reachable from b.
	reaches map[Hash]bool
	// reached says that it did.
	reached bool
}

func (r *History) newAncestryWalk() (*ancestryWalk, error) {
	shallow, err := r.shallowCommits()
	if err != nil {
		return nil, err
	}
	return &ancestryWalk{r: (*Objects)(r), nodes: map[Hash]*walkNode{}, shallow: shallow}, nil
}

// paint walks back from a and b until every commit left in the queue is
// stale, collecting the common ancestors that are not ancestors of other
// common ancestors (bar clock skew). It stops early once target, unless
// zero, is known to be reachable from b.
func (w *ancestryWalk) paint(a, b, target Hash) error {
	for _, start := range []struct {
		id   Hash
		flag uint8
	}{{a, fromA}, {b, fromB}} {
		n, err := w.node(start.id)
		if err != nil {
			return err
		}
		n.flags |= start.flag
		w.push(n)
	}
	for w.nonStale > 0 {
		if t := w.nodes[target]; t != nil && t.flags&fromB != 0 {
			return nil
		}
		n := w.pop()
		if n.flags&fromB != 0 && w.reaches[n.id] {
			w.reached = true
			return nil
		}
		if err := w.visit(n); err != nil {
			return err
		}
	}
	return nil
}

// visit records n when both sides reach it and passes its paint on to
// its parents; the parents of a common ancestor are stale.
func (w *ancestryWalk) visit(n *walkNode) error {
	flags := n.flags & (fromA | fromB | stale)
	if flags == fromA|fromB {
		if n.flags&result == 0 {
			n.flags |= result
			w.results = append(w.results, n)
		}
		flags |= stale
	}
	for _, p := range n.parents {
		pn, err := w.node(p)
		if err != nil {
			return err
		}
		if pn.flags&flags == flags {
			continue
		}
		if flags&stale != 0 && pn.flags&stale == 0 {
			w.nonStale -= pn.queued
		}
		pn.flags |= flags
		w.push(pn)
	}
	return nil
}

// candidates returns the common ancestors found that are not stale,
// newest first.
func (w *ancestryWalk) candidates() []Hash {
	var out []Hash
	slices.SortStableFunc(w.results, func(x, y *walkNode) int { return cmp.Compare(y.when, x.when) })
	for _, n := range w.results {
		if n.flags&stale == 0 {
			out = append(out, n.id)
		}
	}
	return out
}

// node returns the walk's record of commit h, reading the commit the
// first time.
func (w *ancestryWalk) node(h Hash) (*walkNode, error) {
	if n, ok := w.nodes[h]; ok {
		return n, nil
	}
	parents, when, err := w.r.commitHeader(h)
	if err != nil {
		return nil, err
	}
	if w.shallow[h] {
		parents = nil
	}
	n := &walkNode{id: h, parents: parents, when: when}
	w.nodes[h] = n
	return n, nil
}

func (w *ancestryWalk) push(n *walkNode) {
	n.queued++
	if n.flags&stale == 0 {
		w.nonStale++
	}
	heap.Push(&w.queue, queueEntry{n: n, seq: w.queue.seq})
	w.queue.seq++
}

func (w *ancestryWalk) pop() *walkNode {
	n := heap.Pop(&w.queue).(queueEntry).n
	n.queued--
	if n.flags&stale == 0 {
		w.nonStale--
	}
	return n
}

// nodeQueue is a priority queue of commits, newest committer date first,
// and first in, first out among equal dates.
type nodeQueue struct {
	entries []queueEntry
	seq     uint64
}

type queueEntry struct {
	n   *walkNode
	seq uint64
}

func (q *nodeQueue) Len() int      { return len(q.entries) }
func (q *nodeQueue) Swap(i, j int) { q.entries[i], q.entries[j] = q.entries[j], q.entries[i] }
func (q *nodeQueue) Push(x any)    { q.entries = append(q.entries, x.(queueEntry)) }

func (q *nodeQueue) Less(i, j int) bool {
	a, b := q.entries[i], q.entries[j]
	if a.n.when != b.n.when {
		return a.n.when > b.n.when
	}
	return a.seq < b.seq
}

func (q *nodeQueue) Pop() any {
	last := q.entries[len(q.entries)-1]
	q.entries = q.entries[:len(q.entries)-1]
	return last
}
