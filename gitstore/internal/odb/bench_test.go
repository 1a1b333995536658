package odb

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// benchRepo returns the repository the benchmarks read: the generated
// one, or the one ODB_BENCH_REPO names.
func benchRepo(b *testing.B) string {
	if dir := os.Getenv("ODB_BENCH_REPO"); dir != "" {
		return dir
	}
	return generatedRepo(b)
}

// reader reads one object's content.
type reader func(id [20]byte) ([]byte, error)

// repoDirs are the folders of a repository, found once outside the
// timed loops.
type repoDirs struct {
	objects string // objects folder
	gitDir  string // .git folder
}

// findDirs returns the folders of the repository at dir.
func findDirs(b *testing.B, dir string) repoDirs {
	return repoDirs{
		objects: objectsDir(b, dir),
		gitDir:  strings.TrimSpace(git(b, dir, "rev-parse", "--absolute-git-dir")),
	}
}

// opener opens a reader on a repository and returns it with its closer.
type opener func(b *testing.B, dirs repoDirs) (reader, func())

// openOdb opens a DB.
func openOdb(b *testing.B, dirs repoDirs) (reader, func()) {
	db, err := Open(dirs.objects)
	if err != nil {
		b.Fatal(err)
	}
	return func(id [20]byte) ([]byte, error) {
		_, data, err := db.Read(id, -1)
		return data, err
	}, func() { db.Close() }
}

// openGoGit opens go-git's filesystem storer with its default object
// cache.
func openGoGit(b *testing.B, dirs repoDirs) (reader, func()) {
	st := filesystem.NewStorage(osfs.New(dirs.gitDir), cache.NewObjectLRUDefault())
	return func(id [20]byte) ([]byte, error) {
		o, err := st.EncodedObject(plumbing.AnyObject, plumbing.Hash(id))
		if err != nil {
			return nil, err
		}
		r, err := o.Reader()
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return io.ReadAll(r)
	}, func() { st.Close() }
}

// openGoGitLocked opens go-git's storer behind a mutex: its storer
// returns spurious "object not found" errors when read from several
// goroutines at once.
func openGoGitLocked(b *testing.B, dirs repoDirs) (reader, func()) {
	read, done := openGoGit(b, dirs)
	var mu sync.Mutex
	return func(id [20]byte) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		return read(id)
	}, done
}

var openers = []struct {
	name string
	open opener
}{{"odb", openOdb}, {"gogit", openGoGit}}

var parallelOpeners = []struct {
	name string
	open opener
}{{"odb", openOdb}, {"gogit", openGoGitLocked}}

// allIDs lists every object of the repository at dir.
func allIDs(b *testing.B, dir string) [][20]byte {
	var ids [][20]byte
	out := git(b, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)")
	for _, line := range strings.Fields(out) {
		ids = append(ids, parseID(b, line))
	}
	return ids
}

// BenchmarkReadAll opens the repository and reads every object, one op
// being the whole repository.
func BenchmarkReadAll(b *testing.B) {
	dir := benchRepo(b)
	dirs := findDirs(b, dir)
	ids := allIDs(b, dir)
	for _, o := range openers {
		b.Run(o.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				read, done := o.open(b, dirs)
				for _, id := range ids {
					if _, err := read(id); err != nil {
						b.Fatal(err)
					}
				}
				done()
			}
			b.ReportMetric(float64(len(ids)), "objects/op")
		})
	}
}

// BenchmarkReadParallel reads objects from one open repository in
// parallel goroutines, one op being one object.
func BenchmarkReadParallel(b *testing.B) {
	dir := benchRepo(b)
	dirs := findDirs(b, dir)
	ids := allIDs(b, dir)
	for _, o := range parallelOpeners {
		b.Run(o.name, func(b *testing.B) {
			read, done := o.open(b, dirs)
			defer done()
			var next atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					id := ids[int(next.Add(1))%len(ids)]
					if _, err := read(id); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkFirstRead opens the repository and reads the newest version
// of its most deeply deltified file, as a new process would.
func BenchmarkFirstRead(b *testing.B) {
	dir := benchRepo(b)
	dirs := findDirs(b, dir)
	id := parseID(b, git(b, dir, "rev-parse", firstReadPath(dir)))
	for _, o := range openers {
		b.Run(o.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				read, done := o.open(b, dirs)
				if _, err := read(id); err != nil {
					b.Fatal(err)
				}
				done()
			}
		})
	}
}

// firstReadPath names the object BenchmarkFirstRead reads.
func firstReadPath(dir string) string {
	if os.Getenv("ODB_BENCH_REPO") != "" {
		return "HEAD^{tree}"
	}
	return "HEAD~50:chain.txt"
}

// BenchmarkTreeWalk opens the repository and reads the commits of the
// last commits of HEAD, their trees, subtrees and blobs.
func BenchmarkTreeWalk(b *testing.B) {
	dir := benchRepo(b)
	dirs := findDirs(b, dir)
	commits := allCommits(b, dir, 10)
	for _, o := range openers {
		b.Run(o.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				read, done := o.open(b, dirs)
				for _, c := range commits {
					walkCommit(b, read, c)
				}
				done()
			}
		})
	}
}

// BenchmarkTreeWalkParallel walks the whole tree of a commit in each
// op, from parallel goroutines sharing one open repository.
func BenchmarkTreeWalkParallel(b *testing.B) {
	dir := benchRepo(b)
	dirs := findDirs(b, dir)
	commits := allCommits(b, dir, 50)
	for _, o := range parallelOpeners {
		b.Run(o.name, func(b *testing.B) {
			read, done := o.open(b, dirs)
			defer done()
			var next atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					walkCommit(b, read, commits[int(next.Add(1))%len(commits)])
				}
			})
		})
	}
}

// allCommits lists the last n commits of HEAD.
func allCommits(b *testing.B, dir string, n int) [][20]byte {
	var ids [][20]byte
	for _, line := range strings.Fields(git(b, dir, "rev-list", "-n", "100000", "HEAD")) {
		ids = append(ids, parseID(b, line))
		if len(ids) == n {
			break
		}
	}
	return ids
}

// walkCommit reads commit c, its tree and everything under it.
func walkCommit(b *testing.B, read reader, c [20]byte) {
	data, err := read(c)
	if err != nil || !bytes.HasPrefix(data, []byte("tree ")) {
		b.Fatalf("commit %s: %v", hexID(c), err)
	}
	walkTree(b, read, parseID(b, string(data[5:45])))
}

// walkTree reads tree t and, depth first, its subtrees and blobs.
func walkTree(b *testing.B, read reader, t [20]byte) {
	data, err := read(t)
	if err != nil {
		b.Fatalf("tree %s: %v", hexID(t), err)
	}
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+21 {
			b.Fatalf("tree %s is malformed", hexID(t))
		}
		mode := string(data[:sp])
		var id [20]byte
		copy(id[:], data[nul+1:nul+21])
		data = data[nul+21:]
		switch mode {
		case "40000":
			walkTree(b, read, id)
		case "160000":
		default:
			if _, err := read(id); err != nil {
				b.Fatalf("blob %s: %v", hexID(id), err)
			}
		}
	}
}
