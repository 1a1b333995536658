package audit

// matcher finds many ASCII keywords in one pass over a text, ignoring ASCII
// letter case. It is an Aho-Corasick automaton compiled to a dense table
// over byte classes: only bytes that occur in some keyword get a class of
// their own, which keeps the table small enough to stay in cache.
type matcher struct {
	class    [256]uint8
	nclass   int
	delta    []int32 // state*nclass + class -> next state*nclass
	outFrom  int32   // states from this one on, times nclass, have outputs
	outStart []int32 // outputs of state s are outs[outStart[s]:outStart[s+1]]
	outs     []int32 // keyword indexes
	lens     []int32 // keyword lengths
	maxLen   int     // the longest keyword's length
}

func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

type trieNode struct {
	next map[uint8]int32
	fail int32
	out  []int32
}

// newMatcher builds a matcher for keywords, which must be lowercase ASCII.
func newMatcher(keywords []string) *matcher {
	m := &matcher{lens: make([]int32, len(keywords))}
	m.assignClasses(keywords)
	nodes := m.buildTrie(keywords)
	order := linkFailures(nodes)
	m.compile(nodes, order)
	return m
}

func (m *matcher) assignClasses(keywords []string) {
	n := uint8(1) // class 0 is every byte that occurs in no keyword
	for _, k := range keywords {
		for i := 0; i < len(k); i++ {
			b := k[i]
			if m.class[b] == 0 {
				m.class[b] = n
				n++
			}
		}
	}
	for b := 'A'; b <= 'Z'; b++ {
		m.class[b] = m.class[b+'a'-'A']
	}
	m.nclass = int(n)
}

func (m *matcher) buildTrie(keywords []string) []trieNode {
	nodes := []trieNode{{next: map[uint8]int32{}}}
	for i, k := range keywords {
		m.lens[i] = int32(len(k))
		m.maxLen = max(m.maxLen, len(k))
		s := int32(0)
		for j := 0; j < len(k); j++ {
			c := m.class[k[j]]
			t, ok := nodes[s].next[c]
			if !ok {
				t = int32(len(nodes))
				nodes = append(nodes, trieNode{next: map[uint8]int32{}})
				nodes[s].next[c] = t
			}
			s = t
		}
		nodes[s].out = append(nodes[s].out, int32(i))
	}
	return nodes
}

// linkFailures sets failure links breadth first and merges each state's
// outputs with those of its failure state; it returns the BFS order.
func linkFailures(nodes []trieNode) []int32 {
	order := []int32{0}
	for i := 0; i < len(order); i++ {
		s := order[i]
		for c, t := range nodes[s].next {
			order = append(order, t)
			if s == 0 {
				continue
			}
			f := nodes[s].fail
			for f != 0 && !hasEdge(nodes[f], c) {
				f = nodes[f].fail
			}
			if u, ok := nodes[f].next[c]; ok && u != t {
				nodes[t].fail = u
			}
		}
		if s != 0 {
			nodes[s].out = append(nodes[s].out, nodes[nodes[s].fail].out...)
		}
	}
	return order
}

func hasEdge(n trieNode, c uint8) bool {
	_, ok := n.next[c]
	return ok
}

// compile lays the automaton out as a table. States are numbered so that
// those with outputs come last: one comparison per byte tells whether the
// state reached has any.
func (m *matcher) compile(nodes []trieNode, order []int32) {
	nc := m.nclass
	id := make([]int32, len(nodes))
	n := int32(0)
	for _, withOut := range []bool{false, true} {
		for s := range nodes {
			if (len(nodes[s].out) > 0) == withOut {
				id[s] = n
				n++
			}
			if !withOut && s == len(nodes)-1 {
				m.outFrom = n * int32(nc)
			}
		}
	}
	// A state's row is its failure state's, which the breadth-first order has filled already,
	// with its own edges written over it. Rows and the states they hold are numbered by id, so
	// the table is built once, in place.
	m.delta = make([]int32, len(nodes)*nc)
	rowOf := func(s int32) []int32 { return m.delta[int(id[s])*nc : int(id[s]+1)*nc] }
	for c := range rowOf(0) {
		rowOf(0)[c] = id[0] * int32(nc)
	}
	for _, s := range order {
		row := rowOf(s)
		if s != 0 {
			copy(row, rowOf(nodes[s].fail))
		}
		for c, t := range nodes[s].next {
			row[c] = id[t] * int32(nc)
		}
	}
	byID := make([]int, len(nodes))
	for s := range nodes {
		byID[id[s]] = s
	}
	m.outStart = make([]int32, len(nodes)+1)
	for i, s := range byID {
		m.outStart[i] = int32(len(m.outs))
		m.outs = append(m.outs, nodes[s].out...)
	}
	m.outStart[len(nodes)] = int32(len(m.outs))
}

// kwEnd is a keyword found, and the offset just past it.
type kwEnd struct{ kw, end int32 }

// splitMin is the length from which scan reads a text as two halves in one loop: the next
// state of one half does not wait for the other's, so the processor works on both at once.
const splitMin = 512

// scan calls emit with each keyword index and the offset just past its
// occurrence in text, in order of that offset, as scanPlain does. tail holds,
// between calls, what the second half of a long text found until the first
// half is done.
func (m *matcher) scan(text []byte, tail *[]kwEnd, emit func(kw int, end int)) {
	if len(text) < splitMin {
		m.scanPlain(text, emit)
		return
	}
	delta, class, from, nc := m.delta, &m.class, m.outFrom, int32(m.nclass)
	mid := len(text) / 2
	// The automaton's state after a byte depends on the last maxLen bytes only: the second
	// half starts from the root that many bytes early, finding nothing there.
	b := int32(0)
	for _, c := range text[max(0, mid-m.maxLen+1):mid] {
		b = delta[b+int32(class[c])]
	}
	found := (*tail)[:0]
	first, second := text[:mid], text[mid:]
	second2 := second[:len(first)]
	a := int32(0)
	for i, c := range first {
		a = delta[a+int32(class[c])]
		b = delta[b+int32(class[second2[i]])]
		if a >= from {
			st := a / nc
			for _, k := range m.outs[m.outStart[st]:m.outStart[st+1]] {
				emit(int(k), i+1)
			}
		}
		if b >= from {
			st := b / nc
			for _, k := range m.outs[m.outStart[st]:m.outStart[st+1]] {
				found = append(found, kwEnd{k, int32(mid + i + 1)})
			}
		}
	}
	for i := len(first); i < len(second); i++ {
		b = delta[b+int32(class[second[i]])]
		if b >= from {
			st := b / nc
			for _, k := range m.outs[m.outStart[st]:m.outStart[st+1]] {
				found = append(found, kwEnd{k, int32(mid + i + 1)})
			}
		}
	}
	for _, f := range found {
		emit(int(f.kw), int(f.end))
	}
	*tail = found[:0]
}

// scanPlain calls emit with each keyword index and the offset just past its
// occurrence in text, in order of that offset.
func (m *matcher) scanPlain(text []byte, emit func(kw int, end int)) {
	delta, class, from, nc := m.delta, &m.class, m.outFrom, int32(m.nclass)
	s := int32(0)
	for i, b := range text {
		s = delta[s+int32(class[b])]
		if s >= from {
			st := s / nc
			for _, k := range m.outs[m.outStart[st]:m.outStart[st+1]] {
				emit(int(k), i+1)
			}
		}
	}
}
