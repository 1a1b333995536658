package commitgraph

// MaybeChanged asks the changed-path Bloom filter of the commit at pos
// whether the commit may have changed path (a file or folder, relative to
// the repository's top) compared with its first parent. known is false
// when the commit has no usable filter; maybe is then true. When known is
// true and maybe false, the commit certainly left path alone.
func (g *Graph) MaybeChanged(pos uint32, path string) (maybe, known bool) {
	return g.MaybeChangedQuery(pos, NewPathQuery(path))
}

// MaybeChangedQuery is MaybeChanged with the path's hashes computed once,
// for walks that ask about the same path at many commits. Like git, it
// answers "maybe" only when the path and each of its leading folders are
// all in the filter: a changed path always brings its folders along.
func (g *Graph) MaybeChangedQuery(pos uint32, q *PathQuery) (maybe, known bool) {
	l, i, err := g.locate(pos)
	if err != nil || l.bloom == nil || q.path == "" {
		return true, false
	}
	f, ok := l.bloom.filter(i)
	if !ok || len(f) == 0 {
		return true, false
	}
	for _, k := range q.keys(l.bloom.version) {
		if !k.contains(f, l.bloom.numHashes) {
			return false, true
		}
	}
	return true, true
}

// HasChangedPaths reports whether any layer of the graph carries
// changed-path Bloom filters, and the hash version of the top-most such
// layer.
func (g *Graph) HasChangedPaths() (version int, ok bool) {
	for i := len(g.layers) - 1; i >= 0; i-- {
		if b := g.layers[i].bloom; b != nil {
			return int(b.version), true
		}
	}
	return 0, false
}
