package gitstore

// A Repo's methods are grouped by what they work on. Each part is the same
// repository seen through one noun: its refs, its objects, its history and
// its lock files. A part shares the Repo's state and locks, so getting one
// costs nothing and any number of them may be used at once.

// Refs reads and moves the repository's refs: loose and packed refs, HEAD,
// revisions, compare-and-swap updates under git's lock files, and reflogs.
type Refs Repo

// Objects reads and writes the repository's objects: blobs, trees, commits
// and tags, trees served as file systems, tree surgery and merges, and the
// packing of loose objects.
type Objects Repo

// History walks the repository's commits: first-parent walks, merge bases,
// ancestry and the commit-graph file that speeds them up.
type History Repo

// Locks is the repository's lock files: who holds them, and removing those
// left behind by a process that died.
type Locks Repo

// Refs returns the repository's refs.
func (r *Repo) Refs() *Refs { return (*Refs)(r) }

// Objects returns the repository's objects.
func (r *Repo) Objects() *Objects { return (*Objects)(r) }

// History returns the repository's commit history.
func (r *Repo) History() *History { return (*History)(r) }

// Locks returns the repository's lock files.
func (r *Repo) Locks() *Locks { return (*Locks)(r) }
