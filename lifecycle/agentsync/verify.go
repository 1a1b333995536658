package agentsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/targetdir"
)

// VerifyKind names a way an installed skill differs from the lock.
type VerifyKind string

// The differences Verify reports.
const (
	// VerifyModified is an installed skill whose tree id is not the locked one.
	VerifyModified VerifyKind = "modified"
	// VerifyMissing is a locked skill that is not installed in a target.
	VerifyMissing VerifyKind = "missing"
	// VerifyForeign is an entry of a target that the lock does not list.
	VerifyForeign VerifyKind = "foreign"
	// VerifyType is an entry of the wrong type: a file or link where the skill's folder
	// should be, or something git cannot hold (a pipe, a socket, a device).
	VerifyType VerifyKind = "type"
	// VerifyUnreadable is an installed skill that could not be read, such as one holding a
	// file over the size limit.
	VerifyUnreadable VerifyKind = "unreadable"
	// VerifyTargetMissing is a target folder of the lock that does not exist.
	VerifyTargetMissing VerifyKind = "target-missing"
	// VerifyLeftover is an entry an interrupted sync left in a target (.skillgit-tmp-*,
	// .skillgit-old-*, a manifest draft): a copy of a skill an agent may load.
	VerifyLeftover VerifyKind = "leftover"
	// VerifyUnverified is a locked skill that the sync file's trust: does not cover: the lock
	// records fewer keys than it needs, or keys its allowed-signers file does not list.
	VerifyUnverified VerifyKind = "unverified"
)

// VerifyRequest says which project to verify.
type VerifyRequest struct {
	// Dir is where the command runs; the project is found at or above it.
	Dir string
	// Project, when set, is the project's top folder.
	Project string
	// Workers is how many skills are hashed at once; 0 means GOMAXPROCS.
	Workers int
}

// VerifyFile is one file of a modified skill that differs from the lock.
type VerifyFile struct {
	// Path is the file's path below the skill's folder.
	Path string
	// Change is modified, added, removed, or type (a link for a file or the reverse,
	// or another execute bit).
	Change string
}

// VerifyProblem is one difference between the lock and the files on disk.
type VerifyProblem struct {
	Kind VerifyKind
	// Target is the target folder, as the lock names it.
	Target string
	// Skill is the skill's name; for a foreign entry, the entry's name.
	Skill string
	// Path is the entry's path relative to the project, with forward slashes.
	Path string
	// Want is the locked tree id and Got the one on disk, for a modified skill.
	Want, Got string
	// Files are the files that differ, when the locked tree could be read.
	Files []VerifyFile
	// Detail says more, such as the error of an unreadable skill.
	Detail string
}

// VerifyReport is the outcome of Verify.
type VerifyReport struct {
	// Project is the project's top folder and Lock its lock file.
	Project, Lock string
	// Commit is the lock's commit.
	Commit string
	// Targets and Skills count what the lock lists.
	Targets, Skills int
	// Problems are the differences, in order of target, then skill.
	Problems []VerifyProblem
}

// Verify checks every target the lock of a project lists against it, byte for byte: each
// locked skill must be installed with its tree id and nothing else may be there. It reads
// only the lock and the targets and writes nothing. When a skill differs, the files that
// differ are named if the locked tree can be read from a copy of the skill repository on
// this machine, or from another target where the skill is as locked.
func Verify(req VerifyRequest) (*VerifyReport, error) {
	project, err := verifyProject(req)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(project, LockFileName)
	lock, ok, err := ReadLock(file)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s: no lock file; run `skillgit sync` in the project to write it", file)
	}
	rep, err := verifyLock(project, file, lock, req.Workers)
	if err != nil {
		return nil, err
	}
	probs, err := trustProblems(project, lock)
	if err != nil {
		return nil, err
	}
	rep.Problems = append(rep.Problems, probs...)
	return rep, nil
}

// verifyLock checks the targets of lock, read from file, in the project's top folder project.
func verifyLock(project, file string, lock *Lock, workers int) (*VerifyReport, error) {
	rep := &VerifyReport{Project: project, Lock: file, Commit: lock.Commit, Targets: len(lock.Targets), Skills: len(lock.Skills)}
	proot, err := os.OpenRoot(project)
	if err != nil {
		return nil, err
	}
	defer proot.Close()
	v := &verifier{lock: lock, project: project, workers: workers}
	rep.Problems = v.run(proot)
	return rep, nil
}

// verifyProject finds the project's top folder: Project, or the folder of the sync file.
func verifyProject(req VerifyRequest) (string, error) {
	if req.Project != "" {
		p, err := filepath.Abs(req.Project)
		if err != nil {
			return "", err
		}
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("--project %s: not a folder", req.Project)
		}
		return p, nil
	}
	file, ok, err := FindSyncFile(req.Dir)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("no %s at or above %s: run in an application project, or give --project DIR", SyncFileName, req.Dir)
	}
	return filepath.Dir(file), nil
}

// verifier checks the targets of one lock.
type verifier struct {
	lock    *Lock
	project string
	workers int
}

// job is one locked skill in one target.
type job struct {
	target int
	skill  int
	root   *os.Root
	// results
	problem *VerifyProblem
	files   []catalog.TreeFile
	ok      bool
}

func (v *verifier) run(proot *os.Root) []VerifyProblem {
	var problems []VerifyProblem
	var jobs []*job
	for ti, t := range v.lock.Targets {
		root, p := v.openTarget(proot, t)
		if p != nil {
			problems = append(problems, *p)
			continue
		}
		defer root.Close()
		problems = append(problems, v.foreign(root, t)...)
		for si := range v.lock.Skills {
			jobs = append(jobs, &job{target: ti, skill: si, root: root})
		}
	}
	v.hashAll(jobs)
	v.explain(jobs)
	for _, j := range jobs {
		if j.problem != nil {
			problems = append(problems, *j.problem)
		}
	}
	slices.SortStableFunc(problems, func(a, b VerifyProblem) int {
		if c := strings.Compare(a.Target, b.Target); c != 0 {
			return c
		}
		return strings.Compare(a.Skill, b.Skill)
	})
	return problems
}

// openTarget opens target t inside the project, or reports it missing or not a folder.
func (v *verifier) openTarget(proot *os.Root, t LockTarget) (*os.Root, *VerifyProblem) {
	root, err := proot.OpenRoot(t.Dir)
	if err == nil {
		return root, nil
	}
	p := &VerifyProblem{Kind: VerifyTargetMissing, Target: t.Dir, Path: t.Dir}
	fi, serr := proot.Lstat(t.Dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) && serr != nil:
		p.Detail = "the folder does not exist"
	case serr == nil && !fi.IsDir():
		p.Kind = VerifyType
		p.Detail = "not a folder: " + describeType(fi.Mode().Type())
	default:
		p.Kind = VerifyUnreadable
		p.Detail = err.Error()
	}
	return nil, p
}

// foreign lists the entries of target t that the lock does not list: leftovers of an
// interrupted sync, skillgit's own file names held by something other than a file, and the
// rest as foreign; only the files a sync keeps there are left out.
func (v *verifier) foreign(root *os.Root, t LockTarget) []VerifyProblem {
	f, err := root.Open(".")
	if err != nil {
		return []VerifyProblem{{Kind: VerifyUnreadable, Target: t.Dir, Path: t.Dir, Detail: err.Error()}}
	}
	ents, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		return []VerifyProblem{{Kind: VerifyUnreadable, Target: t.Dir, Path: t.Dir, Detail: err.Error()}}
	}
	var out []VerifyProblem
	for _, e := range ents {
		p := VerifyProblem{Kind: VerifyForeign, Target: t.Dir, Skill: e.Name(), Path: path.Join(t.Dir, e.Name())}
		switch {
		case targetdir.IsOwnFile(e.Name()) && e.Type().IsRegular():
			continue
		case targetdir.IsOwnFile(e.Name()):
			p.Kind, p.Detail = VerifyType, describeType(e.Type())+" where skillgit keeps a file of its own; remove it"
		case targetdir.IsLeftover(e.Name()):
			p.Kind, p.Detail = VerifyLeftover, "left by an interrupted sync ("+describeType(e.Type())+"); `skillgit sync` or `skillgit doctor --fix` removes it"
		default:
			if _, ok := v.lock.Skill(e.Name()); ok {
				continue
			}
			p.Detail = "not in the lock: " + describeType(e.Type())
		}
		out = append(out, p)
	}
	return out
}

func describeType(t fs.FileMode) string {
	switch {
	case t.IsDir():
		return "a folder"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	case t.IsRegular():
		return "a file"
	}
	return "a special file (" + t.String() + ")"
}

// hashAll hashes every job, GOMAXPROCS (or Workers) at a time.
func (v *verifier) hashAll(jobs []*job) {
	n := v.workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	ch := make(chan *job)
	var wg sync.WaitGroup
	for range min(n, max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				v.check(j)
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
}

// check hashes one installed skill and compares it with the lock.
func (v *verifier) check(j *job) {
	t, s := v.lock.Targets[j.target], v.lock.Skills[j.skill]
	p := &VerifyProblem{Target: t.Dir, Skill: s.Name, Path: path.Join(t.Dir, s.Name), Want: s.Tree}
	fi, err := j.root.Lstat(s.Name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.Kind, p.Want = VerifyMissing, ""
		j.problem = p
		return
	case err != nil:
		p.Kind, p.Detail = VerifyUnreadable, err.Error()
		j.problem = p
		return
	case fi.Mode()&fs.ModeSymlink != 0:
		v.checkLinked(j, p)
		return
	case !fi.IsDir():
		p.Kind, p.Detail = VerifyType, describeType(fi.Mode().Type())+" where the skill's folder should be"
		j.problem = p
		return
	}
	v.compare(j, p, j.root, s.Name)
}

// checkLinked checks a skill installed as a symbolic link (sync --symlink) through the
// folder the link points at.
func (v *verifier) checkLinked(j *job, p *VerifyProblem) {
	target, err := j.root.Readlink(p.Skill)
	if err == nil && !filepath.IsAbs(target) {
		err = errors.New("a relative link; sync --symlink makes absolute ones")
	}
	var lroot *os.Root
	if err == nil {
		lroot, err = os.OpenRoot(target)
	}
	if err != nil {
		p.Kind, p.Detail = VerifyType, fmt.Sprintf("a symbolic link to %s that cannot be verified: %v", target, err)
		j.problem = p
		return
	}
	defer lroot.Close()
	v.compare(j, p, lroot, ".")
}

// compare hashes folder dir of root and records a difference from the lock.
func (v *verifier) compare(j *job, p *VerifyProblem, root *os.Root, dir string) {
	id, files, err := catalog.TreeHash(root, dir, catalog.TreeHashOptions{})
	var ute *catalog.UnexpectedTypeError
	switch {
	case errors.As(err, &ute):
		p.Kind, p.Detail = VerifyType, ute.Error()
		p.Files = []VerifyFile{{Path: ute.Path, Change: "type"}}
		j.problem = p
	case err != nil:
		p.Kind, p.Detail = VerifyUnreadable, err.Error()
		j.problem = p
	case id != p.Want:
		p.Kind, p.Got = VerifyModified, id
		j.files = files
		j.problem = p
	default:
		j.files, j.ok = files, true
	}
}

// explain names the files of each modified skill that differ from the locked tree, read
// from another target that holds the skill as locked, or from the skill repository.
func (v *verifier) explain(jobs []*job) {
	good := map[string][]catalog.TreeFile{}
	for _, j := range jobs {
		if j.ok {
			good[v.lock.Skills[j.skill].Name] = j.files
		}
	}
	var src *lockedTrees
	for _, j := range jobs {
		if j.problem == nil || j.problem.Kind != VerifyModified {
			continue
		}
		want, ok := good[j.problem.Skill]
		if !ok {
			if src == nil {
				src = openLockedTrees(v.lock, v.project)
			}
			want, ok = src.files(j.problem.Want)
		}
		if ok {
			j.problem.Files = diffFiles(want, j.files)
			if hasTypeChange(j.problem.Files) {
				j.problem.Kind = VerifyType
			}
		}
	}
	if src != nil {
		src.close()
	}
}

// diffFiles lists how got differs from want; both are in order of Path.
func diffFiles(want, got []catalog.TreeFile) []VerifyFile {
	var out []VerifyFile
	i, k := 0, 0
	for i < len(want) || k < len(got) {
		switch {
		case k == len(got) || (i < len(want) && want[i].Path < got[k].Path):
			out = append(out, VerifyFile{Path: want[i].Path, Change: "removed"})
			i++
		case i == len(want) || got[k].Path < want[i].Path:
			out = append(out, VerifyFile{Path: got[k].Path, Change: "added"})
			k++
		default:
			if c := fileChange(want[i], got[k]); c != "" {
				out = append(out, VerifyFile{Path: got[k].Path, Change: c})
			}
			i++
			k++
		}
	}
	return out
}

func fileChange(want, got catalog.TreeFile) string {
	switch {
	case (want.Mode == catalog.ModeSymlink) != (got.Mode == catalog.ModeSymlink):
		return "type"
	case want.ID != got.ID:
		return "modified"
	case want.Mode != got.Mode:
		return "mode"
	}
	return ""
}

func hasTypeChange(files []VerifyFile) bool {
	return slices.ContainsFunc(files, func(f VerifyFile) bool { return f.Change == "type" })
}
