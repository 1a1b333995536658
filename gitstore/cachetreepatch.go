package gitstore

import (
	"strconv"
	"strings"
)

// ctNode is one folder of the cache-tree extension: its name, the number of index entries
// it covers (-1 when invalid), its tree id when valid, and its subfolders in file order.
type ctNode struct {
	name  string
	count int
	hash  Hash
	subs  []*ctNode
}

// parseCacheTreeNodes reads a cache-tree extension, invalid entries and all.
func parseCacheTreeNodes(data []byte) (*ctNode, error) {
	p := &cacheTreeParser{b: data}
	root, err := p.node(0)
	if err != nil || p.pos != len(data) {
		return nil, errBadIndex
	}
	return root, nil
}

// node reads one entry and, depth first, those of its subfolders.
func (p *cacheTreeParser) node(depth int) (*ctNode, error) {
	name, ok1 := p.until(0)
	count, ok2 := p.until(' ')
	subs, ok3 := p.until('\n')
	if !ok1 || !ok2 || !ok3 || depth > maxDepth || (depth > 0 && name == "") {
		return nil, errBadIndex
	}
	n, err1 := strconv.Atoi(count)
	k, err2 := strconv.Atoi(subs)
	if err1 != nil || err2 != nil || k < 0 || k > len(p.b) {
		return nil, errBadIndex
	}
	nd := &ctNode{name: name, count: n}
	if n >= 0 {
		if p.pos+len(Hash{}) > len(p.b) {
			return nil, errBadIndex
		}
		p.pos += copy(nd.hash[:], p.b[p.pos:])
	}
	for range k {
		c, err := p.node(depth + 1)
		if err != nil {
			return nil, err
		}
		nd.subs = append(nd.subs, c)
	}
	return nd, nil
}

// invalidate marks invalid the folders that hold path, which changed, and forgets what the
// cache knew of path itself and below it, as git does when it changes the index there.
func (n *ctNode) invalidate(path string) {
	n.count = -1
	first, rest, _ := strings.Cut(path, "/")
	for i, c := range n.subs {
		if c.name != first {
			continue
		}
		if rest == "" {
			n.subs = append(n.subs[:i], n.subs[i+1:]...)
		} else {
			c.invalidate(rest)
		}
		return
	}
}

// appendTo writes the node and its subfolders in the extension's format.
func (n *ctNode) appendTo(b []byte) []byte {
	b = append(b, n.name...)
	b = append(b, 0)
	b = strconv.AppendInt(b, int64(n.count), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(len(n.subs)), 10)
	b = append(b, '\n')
	if n.count >= 0 {
		b = append(b, n.hash[:]...)
	}
	for _, c := range n.subs {
		b = c.appendTo(b)
	}
	return b
}

// patchCacheTree returns the cache-tree extension data with the folders holding each of
// changed invalidated and the changed paths forgotten; nil when data is nil or unreadable,
// and then the index is written without the extension, which git rebuilds.
func patchCacheTree(data []byte, changed []string) []byte {
	if data == nil {
		return nil
	}
	root, err := parseCacheTreeNodes(data)
	if err != nil {
		return nil
	}
	for _, p := range changed {
		root.invalidate(strings.Trim(p, "/"))
	}
	return root.appendTo(make([]byte, 0, len(data)))
}
