package agentsync

import "path/filepath"

// Project is an application project: a folder at whose top a sync file names the skill
// repository its skills come from.
type Project struct {
	// Dir is the project's top folder; File its sync file.
	Dir, File string
	// Repository is the skill repository as the sync file names it: a path relative to Dir,
	// or a URL. Empty when the file cannot be read, and then Err says why.
	Repository string
	Err        error
}

// FindProject finds the application project at or above dir, as sync does (FindSyncFile);
// nil when dir is in none.
func FindProject(dir string) *Project {
	file, found, err := FindSyncFile(dir)
	if err != nil || !found {
		return nil
	}
	p := &Project{Dir: filepath.Dir(file), File: file}
	sf, err := ReadSyncFile(file)
	if err != nil {
		p.Err = err
		return p
	}
	p.Repository = sf.Repository
	return p
}

// RepositoryDir is the folder of the skill repository the project names by path; empty when
// it names one by URL, or none.
func (p *Project) RepositoryDir() string {
	switch {
	case p.Repository == "" || IsGitURL(p.Repository):
		return ""
	case filepath.IsAbs(p.Repository):
		return filepath.Clean(p.Repository)
	}
	return filepath.Join(p.Dir, p.Repository)
}
