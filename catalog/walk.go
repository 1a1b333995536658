package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
)

// folder is one folder waiting to be searched. When listed is set, entries
// holds its listing, already read.
type folder struct {
	dir     string
	depth   int
	listed  bool
	entries []fs.DirEntry
}

// walker searches folders in parallel. A worker that finds a category pushes
// its subfolders back on a shared stack, so the search spreads over every
// worker however the tree is shaped.
type walker struct {
	fsys fs.FS
	opts Options

	mu      sync.Mutex
	more    sync.Cond
	stack   []folder
	pending int // folders pushed and not yet finished
}

func newWalker(fsys fs.FS, opts Options) *walker {
	w := &walker{fsys: fsys, opts: opts}
	w.more.L = &w.mu
	return w
}

// push adds folders to search.
func (w *walker) push(folders ...folder) {
	w.mu.Lock()
	w.stack = append(w.stack, folders...)
	w.pending += len(folders)
	w.mu.Unlock()
	w.more.Broadcast()
}

// pop waits for a folder to search; ok is false when the search is over.
func (w *walker) pop() (f folder, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.stack) == 0 && w.pending > 0 {
		w.more.Wait()
	}
	if len(w.stack) == 0 {
		return folder{}, false
	}
	f = w.stack[len(w.stack)-1]
	w.stack[len(w.stack)-1] = folder{}
	w.stack = w.stack[:len(w.stack)-1]
	return f, true
}

// done marks one popped folder as finished.
func (w *walker) done() {
	w.mu.Lock()
	w.pending--
	last := w.pending == 0
	w.mu.Unlock()
	if last {
		w.more.Broadcast()
	}
}

// run searches every pushed folder and merges what the workers found.
func (w *walker) run() *Result {
	n := w.opts.workers()
	found := make([]worker, n)
	var wg sync.WaitGroup
	for i := range found {
		found[i].w = w
		wg.Go(found[i].run)
	}
	wg.Wait()
	res := &Result{}
	for i := range found {
		res.Skills = append(res.Skills, found[i].skills...)
		res.Problems = append(res.Problems, found[i].problems...)
		res.Folders = append(res.Folders, found[i].folders...)
	}
	slices.Sort(res.Folders)
	return res
}

// worker searches folders and keeps what it finds to itself, so that
// workers never contend for results.
type worker struct {
	w        *walker
	ld       loader
	skills   []*Skill
	problems []Problem
	folders  []string
}

func (k *worker) run() {
	for {
		f, ok := k.w.pop()
		if !ok {
			return
		}
		k.search(f)
		k.w.done()
	}
}

// search reads one folder: a skill when it holds a SKILL.md, otherwise a
// category whose subfolders are searched in turn. Probing for the SKILL.md
// first spares listing every skill folder, which saves a third of the
// system calls of a large tree.
func (k *worker) search(f folder) {
	if f.listed {
		k.listed(f)
		return
	}
	file := childDir(f.dir, FileName)
	info, err := fs.Lstat(k.w.fsys, file)
	switch {
	case err == nil:
		k.load(f.dir, info)
		return
	case !errors.Is(err, fs.ErrNotExist):
		k.problems = append(k.problems, unreadableProblem(file, err))
		return
	}
	entries, err := fs.ReadDir(k.w.fsys, f.dir)
	if err != nil {
		k.problems = append(k.problems, unreadableFolder(f.dir, err))
		return
	}
	k.category(f, entries)
}

// listed handles a folder whose entries are known.
func (k *worker) listed(f folder) {
	e := skillEntry(f.entries)
	if e == nil {
		k.category(f, f.entries)
		return
	}
	info, err := e.Info()
	if err != nil {
		k.problems = append(k.problems, unreadableProblem(childDir(f.dir, FileName), err))
		return
	}
	k.load(f.dir, info)
}

// load reads the skill in dir, whose SKILL.md has the Lstat result info.
func (k *worker) load(dir string, info fs.FileInfo) {
	k.folders = append(k.folders, dir)
	c := newChecker(dir, k.w.opts.Mode)
	s, problems := c.result(k.ld.load(c, k.w.fsys, info, k.w.opts.FrontmatterOnly))
	if s != nil {
		k.skills = append(k.skills, s)
	}
	k.problems = append(k.problems, problems...)
}

// category queues the subfolders of a category folder.
func (k *worker) category(f folder, entries []fs.DirEntry) {
	var sub []folder
	for _, e := range entries {
		name := e.Name()
		if isHidden(name) {
			continue
		}
		dir := childDir(f.dir, name)
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			k.warn(dir, "entry is a symbolic link, which is never followed; skills behind it are not found, so put the folder itself here")
		case !e.IsDir():
		case f.depth+1 > k.w.opts.maxDepth():
			k.warn(dir, fmt.Sprintf("folder is %d levels below the skills folder, past the search limit of %d; skills in it are not found, so move them up", f.depth+1, k.w.opts.maxDepth()))
		default:
			sub = append(sub, folder{dir: dir, depth: f.depth + 1})
		}
	}
	if len(sub) > 0 {
		k.w.push(sub...)
	}
}

// warn records a warning about file.
func (k *worker) warn(file, msg string) {
	k.problems = append(k.problems, Problem{File: file, Message: msg, Warning: true})
}
