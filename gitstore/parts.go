package gitstore

// A Repo's methods are grouped by what they work on. Each part is the same
// repository seen through one noun: its refs, the updates that move them,
// the held moves that wait to land together, its reflogs, its objects, the
// writes that make new objects, its packs, its history and its lock files.
// A part shares the Repo's state and locks, so getting one costs nothing and
// any number of them may be used at once.

// Refs reads the repository's refs: loose and packed refs, HEAD, held moves
// as this Repo sees them, and revisions resolved to commits.
type Refs Repo

// Updates moves the repository's refs: compare-and-swap updates and
// deletions under git's lock files, HEAD pointed at a branch, and the checks
// that keep one ref from being a folder of another.
type Updates Repo

// Holds is the repository's held ref moves: while refs are held, updates wait
// in memory and land together, each ref written once.
type Holds Repo

// Reflogs is the repository's reflogs: which ref updates git would log, and
// the lines appended for them and removed with a deleted ref.
type Reflogs Repo

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

// Updates returns the updates that move the repository's refs.
func (r *Repo) Updates() *Updates { return (*Updates)(r) }

// Holds returns the repository's held ref moves.
func (r *Repo) Holds() *Holds { return (*Holds)(r) }

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
