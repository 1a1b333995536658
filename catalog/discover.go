package catalog

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strings"

	"github.com/hashicorp/go-multierror"
)

// DefaultMaxDepth is how many folder levels below the root Discover searches
// when Options.MaxDepth is not set.
const DefaultMaxDepth = 6

// ErrNoSkills reports a folder with no SKILL.md anywhere in the part of it Discover searches.
var ErrNoSkills = errors.New("no skills found")

// NoSkillsError returns the error for the folder shown (as the user named it) that holds no
// SKILL.md at any depth Discover searches.
func NoSkillsError(shown string) error {
	return fmt.Errorf("%s: %w: no %s under %s (searched %d levels deep; dot-folders inside it are skipped, so name one to search it)",
		shown, ErrNoSkills, FileName, shown, DefaultMaxDepth)
}

// Options tune Discover.
type Options struct {
	// Mode selects strict or lenient validation.
	Mode Mode
	// MaxDepth is how many folder levels below the root are searched;
	// 0 means DefaultMaxDepth.
	MaxDepth int
	// FrontmatterOnly reads only the frontmatter of each SKILL.md, leaving
	// every Skill's Body empty.
	FrontmatterOnly bool
	// Workers is how many folders are read in parallel; 0 means GOMAXPROCS.
	Workers int
}

// Result is what Discover found.
type Result struct {
	// Skills holds every skill that loads, sorted by Name, then Dir.
	Skills []*Skill
	// Problems holds every problem found, sorted by File, then Line.
	Problems []Problem
	// Folders holds every folder with a SKILL.md, sorted, whether or not
	// its skill loads: what a security audit must read.
	Folders []string
}

// Err returns nil when no problem is an error, and otherwise a
// *multierror.Error holding every error-level Problem.
func (r *Result) Err() error {
	var errs *multierror.Error
	for _, p := range r.Problems {
		if !p.Warning {
			errs = multierror.Append(errs, p)
		}
	}
	if errs == nil {
		return nil
	}
	errs.ErrorFormat = formatProblems
	return errs
}

// formatProblems lists one problem a line, after a count.
func formatProblems(errs []error) string {
	lines := make([]string, 0, len(errs)+1)
	noun := "problems"
	if len(errs) == 1 {
		noun = "problem"
	}
	lines = append(lines, fmt.Sprintf("%d %s in skills:", len(errs), noun))
	for _, err := range errs {
		lines = append(lines, "  "+err.Error())
	}
	return strings.Join(lines, "\n")
}

// Discover finds every skill below root in fsys. A folder holding a SKILL.md
// is a skill, and Discover does not look for more skills inside it; any
// other folder is a category, searched in turn up to opts.MaxDepth levels
// below root. Hidden folders (".git", ".github", ...) are not searched and
// symbolic links are never followed. Two skills with one name are an error
// naming both files; in lenient mode that is a warning and the first by path
// wins. Skills are read and parsed in parallel.
//
// The error is non-nil only when root itself cannot be read; everything
// wrong below it is a Problem in the result.
func Discover(fsys fs.FS, root string, opts Options) (*Result, error) {
	if !fs.ValidPath(root) {
		return nil, fmt.Errorf("skills folder %q: not a clean slash-separated path inside the tree; pass it without a leading /, ./ or ..", root)
	}
	entries, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("skills folder %q: %w", root, err)
	}
	w := newWalker(fsys, opts)
	w.push(folder{dir: root, listed: true, entries: entries})
	res := w.run()
	res.resolveDuplicates(opts.Mode)
	slices.SortStableFunc(res.Problems, func(a, b Problem) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return res, nil
}

// resolveDuplicates sorts the skills and reports every name used twice.
// In lenient mode only the first skill of a name by path is kept.
func (r *Result) resolveDuplicates(mode Mode) {
	slices.SortFunc(r.Skills, func(a, b *Skill) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Dir, b.Dir))
	})
	kept := r.Skills[:0]
	var first *Skill
	for _, s := range r.Skills {
		if first == nil || s.Name != first.Name {
			first = s
			kept = append(kept, s)
			continue
		}
		r.Problems = append(r.Problems, duplicate(first, s, mode))
		if mode == Strict {
			kept = append(kept, s)
		}
	}
	clear(r.Skills[len(kept):])
	r.Skills = kept
}

// duplicateText is in the message of every problem duplicate makes.
const duplicateText = " is used by both "

// isDuplicate reports whether p is a problem that duplicate made.
func isDuplicate(p Problem) bool { return strings.Contains(p.Message, duplicateText) }

// duplicate reports that s uses the name of first, which comes earlier by path.
func duplicate(first, s *Skill, mode Mode) Problem {
	p := Problem{File: s.File(), Line: s.nameLine}
	p.Message = fmt.Sprintf("skill name %q"+duplicateText+"%s and %s; names must be unique, so rename one of them", s.Name, first.File(), s.File())
	if mode == Lenient {
		p.Warning = true
		p.Message += fmt.Sprintf(" (agents load only %s)", first.File())
	}
	return p
}

// maxDepth returns the depth bound of opts.
func (o Options) maxDepth() int {
	if o.MaxDepth <= 0 {
		return DefaultMaxDepth
	}
	return o.MaxDepth
}

// workers returns the parallelism of opts.
func (o Options) workers() int {
	if o.Workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return o.Workers
}

// isHidden reports whether a folder name is hidden by the dot convention.
func isHidden(name string) bool {
	return strings.HasPrefix(name, ".")
}

// childDir joins a folder and an entry name without cleaning the result
// again, since both are already clean.
func childDir(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// skillEntry returns the SKILL.md entry of a folder listing, if any.
func skillEntry(entries []fs.DirEntry) fs.DirEntry {
	for _, e := range entries {
		if e.Name() == FileName {
			return e
		}
	}
	return nil
}
