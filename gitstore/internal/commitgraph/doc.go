// Package commitgraph reads git's commit-graph files: the single file
// objects/info/commit-graph or the split chain under
// objects/info/commit-graphs. A graph answers, without reading commit
// objects, a commit's root tree, parents, commit time and generation
// number, and, when the graph carries changed-path Bloom filters, whether
// a commit may have changed a path.
//
// A Graph is read-only once opened and safe for concurrent use. Files are
// memory-mapped where the platform allows it and read into memory
// otherwise. Every offset read from a file is checked against the file's
// bounds: a corrupted file gives an error wrapping ErrCorrupt, never a
// panic or an allocation sized by the file's claims.
//
// Only the repository's own objects folder is read: graphs of alternate
// object stores are not consulted. Open does not hash the files; Verify checks each file's trailing SHA-1
// checksum, the order of its commit ids and its fanout, at the cost of
// reading every byte once.
package commitgraph
