package gitstore

// A Repo's methods are grouped by what they work on. Each part is the same
// repository seen through one noun: its refs, its objects, the writes that
// make new objects, its packs, its history and its lock files. A part shares
// the Repo's state and locks, so getting one costs nothing and any number of
// them may be used at once.

// Refs reads and moves the repository's refs: loose and packed refs, HEAD,
// revisions, compare-and-swap updates under git's lock files, and reflogs.
type Refs Repo

// Objects reads the repository's objects: blobs, trees, commits and tags,
// entries at a path of a tree, and trees served as file systems.
type Objects Repo

// Writes makes the repository's new objects: blobs, trees, commits and
// folders stored as trees, tree surgery and merges that write only the trees
// they change, and the loose files or held packs the objects go to.
type Writes Repo

// Packs keeps the repository's object store in shape: it estimates the loose
// objects, packs them into one pack and removes the loose copies it packed.
type Packs Repo

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

// Writes returns the writes that make the repository's new objects.
func (r *Repo) Writes() *Writes { return (*Writes)(r) }

// Packs returns the repository's packs.
func (r *Repo) Packs() *Packs { return (*Packs)(r) }

// History returns the repository's commit history.
func (r *Repo) History() *History { return (*History)(r) }

// Locks returns the repository's lock files.
func (r *Repo) Locks() *Locks { return (*Locks)(r) }
