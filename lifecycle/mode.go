package lifecycle

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// SetMode changes the lifecycle mode with a commit on the publish branch that edits only the
// mode in .skillgit.yaml, so the policy change is in the audit trail too. With server.protect
// on, the change is proposed as a policy candidate instead, which people approve and publish.
func (r *Repo) SetMode(m policy.Mode, o ActOptions) (*Result, error) {
	switch m {
	case policy.ModeManual, policy.ModeAssisted, policy.ModeAutonomous:
	default:
		return nil, fmt.Errorf("mode %q is not one of manual, assisted, autonomous", m)
	}
	sig, warn, err := r.Actor(o)
	if err != nil {
		return nil, err
	}
	t := &tx{r: r, sig: sig}
	res, err := t.retry(func() (*Result, error) { return setModeOnce(t, m, o) })
	if err != nil {
		return nil, err
	}
	res.addWarning(warn)
	return res, nil
}

// setModeOnce writes the change of mode to m on the publish branch's current tip in t, or
// proposes it as a policy candidate when server.protect is on.
func setModeOnce(t *tx, m policy.Mode, o ActOptions) (*Result, error) {
	r := t.r
	if r.cfg.Mode == m {
		return nil, fmt.Errorf("the mode is already %s", m)
	}
	data, _, err := r.FileAt(r.tree, policy.ConfigFile, policy.MaxConfigSize, gitstore.ShortRef(r.branch))
	if err != nil {
		return nil, err
	}
	edited, err := policy.SetKey(data, "mode", string(m))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", policy.ConfigFile, err)
	}
	if _, err := policy.ParseConfig(edited); err != nil {
		return nil, err
	}
	blob, err := r.git.Writes().WriteBlob(edited)
	if err != nil {
		return nil, err
	}
	tree, err := r.git.Writes().ReplacePath(r.tree, policy.ConfigFile, &gitstore.TreeEntry{Mode: filemode.Regular, Hash: blob})
	if err != nil {
		return nil, err
	}
	body := fmt.Sprintf("The lifecycle mode changes from %s to %s.", r.cfg.Mode, m)
	if r.cfg.Server.Protect {
		return r.ProposePolicy(tree, body, ProposeOptions{ActOptions: o})
	}
	ts := trailerList{}.add(keyAction, actMode).add(keyMode, string(m))
	h, err := t.onBranch(tree, ts.message("mode: "+string(m), body, o), []string{policy.ConfigFile})
	if err != nil {
		return nil, err
	}
	return &Result{Action: actMode, Commit: h.String(), Channel: gitstore.ShortRef(r.branch)}, nil
}
