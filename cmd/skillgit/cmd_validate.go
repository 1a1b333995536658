package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

type validateJSON struct {
	Valid    bool          `json:"valid"`
	Checked  int           `json:"valid_skills"`
	Skills   []listEntry   `json:"skills"`
	Problems []problemJSON `json:"problems"`
}

type problemJSON struct {
	File     string `json:"file"`
	Line     int    `json:"line,omitempty"`
	Message  string `json:"message"`
	Severity string `json:"severity"`
}

// validateOptions are the flag and arguments of validate.
type validateOptions struct {
	app     *app
	paths   []string
	lenient bool
}

func newValidateCmd(a *app) *cobra.Command {
	o := &validateOptions{app: a}
	c := &cobra.Command{
		Use:   "validate [PATH...]",
		Short: "Check skills against the Agent Skills specification",
		Long: `Check skills in the working tree. A PATH is a skill folder, a SKILL.md, or a folder of
skills (searched recursively, categories allowed; a dot-folder is searched only when
named); a PATH with no SKILL.md under it is an error. Without PATH, the repository's
skills folder is checked (outside git, PATH is required), and in a skillgit repository
also the profiles of .skillgit.yaml (the working tree's file, else the publish
branch's): a file that does not parse, or a profile entry that names a skill not
published on the publish branch, is an error; and the audit rules of the working
tree's .skillgit/audit-rules.yaml: each rule that does not compile or fails its
examples is an error. Strict mode (the default) applies the reference rules;
--lenient reports only what would stop an agent from loading a skill.
Exit status 0 when every skill and profile is valid, 1 otherwise.`,
		RunE: func(c *cobra.Command, args []string) error {
			o.paths = args
			return runValidate(o)
		},
	}
	c.Flags().BoolVar(&o.lenient, "lenient", false, "accept what agents load in practice; report the rest as warnings")
	a.addJSON(c)
	return c
}

func runValidate(o *validateOptions) error {
	paths := o.paths
	mode := catalog.Strict
	if o.lenient {
		mode = catalog.Lenient
	}
	repoWide := len(paths) == 0
	if repoWide {
		p, err := o.defaultSkillsDir()
		if err != nil {
			return err
		}
		paths = []string{p}
	}
	total := &catalog.Result{}
	for _, p := range paths {
		res, err := o.validatePath(p, mode)
		if repoWide && errors.Is(err, catalog.ErrNoSkills) {
			continue // a repository with no skills yet is valid
		}
		if err != nil {
			return err
		}
		total.Skills = append(total.Skills, res.Skills...)
		total.Problems = append(total.Problems, res.Problems...)
	}
	if repoWide {
		ps, err := o.policyProblems()
		if err != nil {
			return err
		}
		total.Problems = append(total.Problems, ps...)
	}
	return o.reportValidation(total)
}

// policyProblems checks the profiles of .skillgit.yaml against the published skills, and the
// audit rules of the working tree, when skillgit runs in a skillgit repository; elsewhere there
// is nothing to check.
func (o *validateOptions) policyProblems() ([]catalog.Problem, error) {
	a := o.app
	r, err := lifecycle.Open(a.repo)
	if errors.Is(err, lifecycle.ErrNotInitialized) || errors.Is(err, gitstore.ErrNotRepository) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	ps, err := r.Published().ProfileProblems()
	if err != nil {
		return nil, err
	}
	rs, err := auditRulesProblems(r.Git().WorktreeDir())
	return append(ps, rs...), err
}

// auditRulesProblems checks the audit rules file of the working tree wt; none without one.
func auditRulesProblems(wt string) ([]catalog.Problem, error) {
	if wt == "" {
		return nil, nil
	}
	root, err := os.OpenRoot(wt)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return policy.AuditRulesProblems(root.FS())
}

// defaultSkillsDir is the repository's skills folder, or in a git repository that skillgit
// has not adopted ./skills, or the current folder. Outside git there is none: a usage error.
func (o *validateOptions) defaultSkillsDir() (string, error) {
	a := o.app
	r, err := lifecycle.Open(a.repo)
	switch {
	case err == nil:
		defer r.Close()
		if wt := r.Git().WorktreeDir(); wt != "" {
			return filepath.Join(wt, filepath.FromSlash(r.Config().SkillsDir)), nil
		}
	case errors.Is(err, gitstore.ErrNotRepository):
		return "", notInRepository("validate", a.repo)
	case !errors.Is(err, lifecycle.ErrNotInitialized):
		return "", err
	}
	if st, err := os.Stat(filepath.Join(a.repo, "skills")); err == nil && st.IsDir() {
		return filepath.Join(a.repo, "skills"), nil
	}
	return a.repo, nil
}

// validatePath checks one PATH; problem and skill paths are given as the user named them.
func (o *validateOptions) validatePath(p string, mode catalog.Mode) (*catalog.Result, error) {
	a := o.app
	full := a.path(p)
	st, err := os.Stat(full)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, errors.Unwrap(err))
	}
	if !st.IsDir() {
		if filepath.Base(full) != catalog.FileName {
			return nil, fmt.Errorf("%s: not a skill folder, a %s or a folder of skills", p, catalog.FileName)
		}
		full, p = filepath.Dir(full), filepath.Dir(p)
	}
	if _, err := os.Lstat(filepath.Join(full, catalog.FileName)); err == nil {
		return validateSkill(full, p, mode)
	}
	return validateTree(full, p, mode)
}

func validateSkill(full, shown string, mode catalog.Mode) (*catalog.Result, error) {
	root, err := os.OpenRoot(filepath.Dir(full))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	s, problems := catalog.Load(root.FS(), filepath.Base(full), mode, true)
	res := &catalog.Result{Problems: problems}
	if s != nil {
		res.Skills = []*catalog.Skill{s}
	}
	relocate(res, filepath.Dir(shown))
	return res, nil
}

func validateTree(full, shown string, mode catalog.Mode) (*catalog.Result, error) {
	root, err := os.OpenRoot(full)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	res, err := catalog.Discover(root.FS(), ".", catalog.Options{Mode: mode, FrontmatterOnly: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", shown, err)
	}
	if len(res.Folders) == 0 {
		return nil, catalog.NoSkillsError(shown)
	}
	relocate(res, shown)
	return res, nil
}

// relocate prefixes the paths of a result with the folder they are relative to.
func relocate(res *catalog.Result, dir string) {
	for _, s := range res.Skills {
		s.Dir = filepath.ToSlash(filepath.Join(dir, s.Dir))
	}
	for i := range res.Problems {
		res.Problems[i].File = filepath.ToSlash(filepath.Join(dir, res.Problems[i].File))
	}
	for i := range res.Folders {
		res.Folders[i] = filepath.ToSlash(filepath.Join(dir, res.Folders[i]))
	}
}

func (o *validateOptions) reportValidation(res *catalog.Result) error {
	a := o.app
	out := validateJSON{Valid: res.Err() == nil, Checked: len(res.Skills), Skills: []listEntry{}, Problems: []problemJSON{}}
	for _, s := range res.Skills {
		out.Skills = append(out.Skills, listEntry{Name: s.Name, Description: s.Description, Path: s.Dir})
	}
	for _, p := range res.Problems {
		out.Problems = append(out.Problems, problemJSON{File: p.File, Line: p.Line, Message: p.Message, Severity: severity(p)})
	}
	if err := a.printResult(out, func(w io.Writer) error { return printValidation(w, res, out) }); err != nil {
		return err
	}
	switch {
	case out.Valid:
		return nil
	case a.json:
		return quietExit{code: ExitError} // the document says why; keep stdout one JSON document
	}
	return exitCodeError{code: ExitError, err: fmt.Errorf("%d problem(s) make skills invalid", errorCount(res.Problems))}
}

func printValidation(w io.Writer, res *catalog.Result, out validateJSON) error {
	for _, p := range res.Problems {
		fmt.Fprintln(w, sanitize(p.String()))
	}
	errs := errorCount(res.Problems)
	status := "all valid"
	if !out.Valid {
		status = fmt.Sprintf("%d error(s)", errs)
	}
	_, err := fmt.Fprintf(w, "%d valid skill(s): %s, %d warning(s)\n", out.Checked, status, len(res.Problems)-errs)
	return err
}

func severity(p catalog.Problem) string {
	if p.Warning {
		return "warning"
	}
	return "error"
}

func errorCount(ps []catalog.Problem) int {
	n := 0
	for _, p := range ps {
		if !p.Warning {
			n++
		}
	}
	return n
}
