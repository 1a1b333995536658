package auditrun

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/internal/atomicfile"
)

// AllowWrite reports what WriteAllowList did.
type AllowWrite struct {
	// File is the allow list written, relative to the working tree, such as
	// ".skillgit/audit-allow.yaml".
	File string `json:"file"`
	// Added counts the new entries; Kept those the file already held.
	Added int `json:"added"`
	Kept  int `json:"kept"`
	// Skipped counts critical findings, which no allow list accepts.
	Skipped int `json:"skipped_critical"`
}

// WriteAllowList adds an entry for every current non-critical finding of reports to the
// allow list that audit.allow names, in the working tree of the repository open finds at
// dir, with reason. Entries already there are kept and not repeated. The file is replaced
// atomically. It takes effect once committed on the publish branch, through a config
// candidate.
func WriteAllowList(open Opener, dir string, reports []audit.SkillReport, reason string) (*AllowWrite, error) {
	if strings.TrimSpace(reason) == "" {
		return nil, fmt.Errorf("--write-allow needs a reason: pass -m REASON; every entry records it")
	}
	r, err := open(dir)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, fmt.Errorf("--write-allow %w", errNoRepository)
	}
	defer r.Git.Close()
	wt := r.Git.WorktreeDir()
	if wt == "" {
		return nil, fmt.Errorf("--write-allow writes into the working tree; run it in a clone with one")
	}
	rel := r.Config.Audit.Allow
	return writeAllowFile(filepath.Join(wt, filepath.FromSlash(rel)), rel, reports, strings.TrimSpace(reason))
}

func writeAllowFile(file, rel string, reports []audit.SkillReport, reason string) (*AllowWrite, error) {
	al, err := readAllowFile(file, rel)
	if err != nil {
		return nil, err
	}
	res := &AllowWrite{File: rel, Kept: len(al.Entries)}
	for _, sr := range reports {
		if sr.Report == nil {
			continue
		}
		res.Added += al.Merge(audit.AllowEntries(sr.Name, sr.Report.Findings, reason)...)
		for _, f := range sr.Report.Findings {
			if f.Severity >= audit.Critical {
				res.Skipped++
			}
		}
	}
	if res.Added == 0 {
		return res, nil
	}
	data, err := al.Marshal()
	if err != nil {
		return nil, err
	}
	if err := writeWorktreeFile(file, data); err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return res, nil
}

// readAllowFile reads the allow list on disk; a missing file is an empty list.
func readAllowFile(file, rel string) (*audit.AllowList, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return &audit.AllowList{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	al, err := audit.ParseAllowList(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; fix it before adding entries", rel, err)
	}
	return al, nil
}

// writeWorktreeFile writes data to a temporary file beside name, syncs it and renames it into
// place with the mode of an ordinary tracked file, so that a reader sees the old list or the
// new one, never a part.
func writeWorktreeFile(name string, data []byte) error {
	return atomicfile.Write(name, data, atomicfile.Options{Perm: 0o644, Sync: true})
}
