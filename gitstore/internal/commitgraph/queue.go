package commitgraph

import "container/heap"

// queued is a commit waiting in a walk, with the keys it is ordered by.
type queued struct {
	pos  uint32
	gen  uint64
	time int64
}

// genQueue pops the commit with the highest generation first, then the
// newest, then the highest position, so walks are deterministic. Popping
// by generation means a commit leaves the queue only after every queued
// descendant.
type genQueue []queued

// Len implements heap.Interface.
func (q genQueue) Len() int { return len(q) }

// Less implements heap.Interface: higher generation, then newer, first.
func (q genQueue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.gen != b.gen {
		return a.gen > b.gen
	}
	if a.time != b.time {
		return a.time > b.time
	}
	return a.pos > b.pos
}

// Swap implements heap.Interface.
func (q genQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }

// Push implements heap.Interface.
func (q *genQueue) Push(x any) { *q = append(*q, x.(queued)) }

// Pop implements heap.Interface.
func (q *genQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// push adds the commit at pos with its ordering keys read from g.
func (q *genQueue) push(g *Graph, pos uint32) error {
	k, err := g.key(pos)
	if err != nil {
		return err
	}
	heap.Push(q, k)
	return nil
}

// pop removes the next commit.
func (q *genQueue) pop() queued { return heap.Pop(q).(queued) }

// key reads the ordering keys of the commit at pos. A graph written
// without generation numbers (level zero) cannot order a walk.
func (g *Graph) key(pos uint32) (queued, error) {
	l, i, err := g.locate(pos)
	if err != nil {
		return queued{}, err
	}
	level, when := levelAndTime(l.cdat[i*cdatEntry:])
	gen, err := g.generation(l, i)
	if err != nil {
		return queued{}, err
	}
	if level == 0 && !g.genV2 {
		return queued{}, unsupported(l.name, "written without generation numbers; rewrite it with git commit-graph write")
	}
	return queued{pos: pos, gen: gen, time: when}, nil
}
