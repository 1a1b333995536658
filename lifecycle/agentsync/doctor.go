package agentsync

// DoctorScope is what `skillgit doctor` looks at for a request: the skill repository a sync
// reads and the folders it writes.
type DoctorScope struct {
	// Repo is the skill repository's folder: its working tree, or its git folder when bare.
	Repo string
	// Targets are the sync targets, as a sync of the request resolves them; none when the
	// request and the configuration name none.
	Targets []Target
	// Note says why the targets could not be resolved; empty when they were, or when none
	// are named.
	Note string
}

// ResolveDoctorScope finds the skill repository and the sync targets of req as sync does (a
// sync file's agents in an application project, sync.targets in the skill repository, or
// the agents and folders of the request), without fetching. A request that names no
// targets, in a repository whose configuration names none either, has none; targets that
// cannot be resolved are left out, with the reason in Note.
func ResolveDoctorScope(req Request) (*DoctorScope, error) {
	req.Offline = true
	r, err := openRepo(req)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	s := &DoctorScope{Repo: r.Git().WorktreeDir()}
	if s.Repo == "" {
		s.Repo = r.Git().CommonDir()
	}
	if !r.namesTargets(req) {
		return s, nil
	}
	err = r.checkSyncFileAgents()
	if err == nil {
		s.Targets, _, err = r.targets(req)
	}
	if err != nil {
		s.Targets, s.Note = nil, err.Error()
	}
	return s, nil
}

// namesTargets reports whether the request, the sync file or the configuration names a
// target.
func (r *repo) namesTargets(req Request) bool {
	return len(req.Agents) > 0 || len(req.Dirs) > 0 || r.appMode || r.sync != nil ||
		len(r.Config().Sync.Targets) > 0
}
