package policy

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/internal/boundedfile"
)

// AuditRulesProblems checks the audit rules file of fsys, a repository's working tree: one
// problem per rule it refuses, none when the file is valid or absent.
func AuditRulesProblems(fsys fs.FS) ([]catalog.Problem, error) {
	data, err := boundedfile.UpTo(fsys, AuditRulesFile, MaxConfigSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", AuditRulesFile, err)
	}
	_, err = audit.ParseCustomRules(data)
	return problemsOf(AuditRulesFile, err), nil
}

// problemsOf turns err, which may join several, into one problem of file each; none for nil.
func problemsOf(file string, err error) []catalog.Problem {
	if err == nil {
		return nil
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	out := make([]catalog.Problem, 0, len(errs))
	for _, e := range errs {
		out = append(out, catalog.Problem{File: file, Message: e.Error()})
	}
	return out
}
