package agentsync

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/crypto/ssh"

	"github.com/skillgit/skillgit/internal/boundedfile"
	"github.com/skillgit/skillgit/internal/sshsig"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// Verified installs. A hosted skill repository runs no server hook, so whoever can push to
// its publish branch can put anything there. An application project whose sync file names a
// trust: installs a skill version only when the history shows it published with approvals
// signed by keys of the project's own allowed-signers file, checked here, at install time.

// NotVerifiedWarning is said once per run by a sync under a lock whose sync file names no trust.
const NotVerifiedWarning = "installs are not verified: " + SyncFileName + " names no trust:, so whatever the skill repository's publish branch holds is installed, however it got there; add trust: {signers: FILE, approvals: N} with the keys of the people whose approvals you accept"

// ErrNotVerified reports a locked skill that the project's trust does not verify.
var ErrNotVerified = errors.New("not verified")

// trust returns the project's trust, reading its allowed-signers file once; nil when the sync
// file names none.
func (r *repo) trust() (*ledger.Trust, error) {
	if r.sync == nil || r.sync.Trust == nil {
		return nil, nil
	}
	if r.trusted != nil {
		return r.trusted, nil
	}
	rel := r.sync.Trust.Signers
	file := filepath.Join(r.project, filepath.FromSlash(rel))
	data, _, err := boundedfile.Read(file, sshsig.MaxAllowedSigners)
	if err != nil {
		return nil, fmt.Errorf("%s: trust.signers: %s cannot be read (%v); commit the project's allowed-signers file there", SyncFileName, rel, err)
	}
	signers, err := sshsig.ParseAllowedSigners(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	if len(signers) == 0 {
		return nil, fmt.Errorf("%s lists no key, so nothing could be verified; add a line per person: EMAIL namespaces=\"git\" KEY", rel)
	}
	r.trusted = &ledger.Trust{Signers: signers, Need: r.sync.Trust.Approvals, File: rel}
	r.signers = data
	return r.trusted, nil
}

// verifyMoved checks every skill the lock moves to a new version against the project's
// trust. A version that fails is not installed: the skill keeps its locked version, or is
// left out when it had none, and held says why. Verified ones record their keys.
func (lk *lockRun) verifyMoved(r *repo, tip plumbing.Hash, fresh []string, held map[string]Skip) ([]string, error) {
	t, err := r.trust()
	if err != nil || t == nil {
		if err == nil {
			lk.rep.Unverified = true
		}
		return fresh, err
	}
	lk.verifyKept(r, fresh, *t)
	// A version not pinned before is checked with the keys valid now, too.
	now := *t
	now.Now = time.Now()
	moved := make([]LockedSkill, len(fresh))
	for k, name := range fresh {
		moved[k] = lk.next.Skills[slices.IndexFunc(lk.next.Skills, func(s LockedSkill) bool { return s.Name == name })]
	}
	proofs, errs := r.verifySkills(moved, now)
	var kept []string
	for k, name := range fresh {
		i := slices.IndexFunc(lk.next.Skills, func(s LockedSkill) bool { return s.Name == name })
		proof, err := proofs[k], errs[k]
		if err == nil {
			lk.next.Skills[i].Keys = proof.Keys
			kept = append(kept, name)
			continue
		}
		reason := fmt.Sprintf("not installed: the version at %s is not verified: %v", shortCommit(tip.String()), err)
		if old, ok := lk.locked(name); ok {
			lk.next.Skills[i] = old
			reason += "; the locked version stays"
		} else {
			lk.next.Skills = slices.Delete(lk.next.Skills, i, i+1)
		}
		held[name] = Skip{Skill: name, Reason: reason, Refused: true}
	}
	return kept, nil
}

// verifyKept verifies the skills the lock keeps as they were and that record no keys, as a
// lock written before the sync file had its trust: does, so that --update fills them in. One
// that fails stays installed and the warning names it; --frozen refuses it.
func (lk *lockRun) verifyKept(r *repo, fresh []string, t ledger.Trust) {
	var at []int
	var kept []LockedSkill
	for i, s := range lk.next.Skills {
		if len(s.Keys) == 0 && !slices.Contains(fresh, s.Name) {
			at, kept = append(at, i), append(kept, s)
		}
	}
	proofs, errs := r.verifySkills(kept, t)
	for k, i := range at {
		if errs[k] != nil {
			r.warnings = append(r.warnings, fmt.Sprintf("%s: the locked version is not verified: %v", kept[k].Name, errs[k]))
			continue
		}
		lk.next.Skills[i].Keys = proofs[k].Keys
	}
}

// verifyLocked checks every skill a lock pins against the project's trust, for an install
// or a frozen install from the lock: a lock edited to pin a version nobody trusted approved,
// or written before the trust was added, installs nothing until it is moved.
func (lk *lockRun) verifyLocked(r *repo, l *Lock) error {
	t, err := r.trust()
	if err != nil || t == nil {
		if err == nil {
			lk.rep.Unverified = true
		}
		return err
	}
	var bad []string
	proofs, errs := r.verifySkills(l.Skills, *t)
	for i, s := range l.Skills {
		if errs[i] != nil {
			bad = append(bad, fmt.Sprintf("%s (%v)", s.Name, errs[i]))
			continue
		}
		l.Skills[i].Keys = proofs[i].Keys
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s pins skills that %s does not verify: %s; %w: move the lock to verified versions with `skillgit sync --update`, or restore it from git",
			LockFileName, t.File, strings.Join(bad, "; "), ErrNotVerified)
	}
	return nil
}

// verifySkills verifies the versions of skills that the lock pins against t, and returns the
// proof or the error of each, in order: the history shows each published with the approvals
// t needs, and the tree the lock installs is the very one that publish put in the skill's
// folder. The second check stands on its own: a commit made after the publish that changed
// the folder, however its message presents it, leaves a tree that no approved publish had.
// Skills pinned at the same commit are verified in one walk of the history.
func (r *repo) verifySkills(skills []LockedSkill, t ledger.Trust) ([]ledger.InstallProof, []error) {
	proofs, errs := make([]ledger.InstallProof, len(skills)), make([]error, len(skills))
	if r.proofs == nil {
		r.proofs = openProofCache(r.Git().CommonDir(), r.signers, t.Need)
	}
	t.Proven = r.proofs.known
	defer r.proofs.save()
	byCommit := map[string][]int{}
	var commits []string
	for i, s := range skills {
		if _, ok := byCommit[s.Commit]; !ok {
			commits = append(commits, s.Commit)
		}
		byCommit[s.Commit] = append(byCommit[s.Commit], i)
	}
	for _, c := range commits {
		names := make([]string, 0, len(byCommit[c]))
		for _, i := range byCommit[c] {
			names = append(names, skills[i].Name)
		}
		ps, es := r.Book().VerifyInstalls(plumbing.NewHash(c), names, t)
		for _, i := range byCommit[c] {
			name := skills[i].Name
			if errs[i] = es[name]; errs[i] == nil {
				proofs[i], errs[i] = r.publishedTree(skills[i], ps[name])
			}
			if errs[i] == nil {
				r.proofs.add(proofs[i])
			}
		}
	}
	return proofs, errs
}

// publishedTree checks that the tree the lock pins for s is the one that proof's publish put
// in the skill's folder, and returns the proof.
func (r *repo) publishedTree(s LockedSkill, proof ledger.InstallProof) (ledger.InstallProof, error) {
	dir := s.dir(r.skillsPrefix())
	got, err := r.Book().FolderAt(proof.Root, dir)
	if err != nil {
		return ledger.InstallProof{}, err
	}
	if got != plumbing.NewHash(s.Tree) {
		return ledger.InstallProof{}, fmt.Errorf("its folder %s holds tree %s, which is not what publish %s put there: a later commit changed it without being a publish, whatever its message claims",
			dir, shortCommit(s.Tree), shortCommit(proof.Publish.String()))
	}
	return proof, nil
}

func shortCommit(h string) string { return h[:min(len(h), 12)] }

// trustProblems checks, for `sync --verify`, that every skill the lock pins records the keys
// of enough approvers of the project's trust: a lock written before the trust was added, or
// edited by hand, shows. It reads no repository, as --verify does not; the history itself is
// checked when sync installs (`sync --frozen` in CI).
func trustProblems(project string, lock *Lock) ([]VerifyProblem, error) {
	sf, err := ReadSyncFile(filepath.Join(project, SyncFileName))
	if err != nil || sf.Trust == nil {
		return nil, nil // no sync file or no trust: nothing to check
	}
	r := &repo{project: project, sync: sf}
	t, err := r.trust()
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, s := range t.Signers {
		known[ssh.FingerprintSHA256(s.Key)] = true
	}
	var out []VerifyProblem
	for _, s := range lock.Skills {
		good := 0
		for _, k := range s.Keys {
			if known[k] {
				good++
			}
		}
		if good < t.Need {
			out = append(out, VerifyProblem{Kind: VerifyUnverified, Skill: s.Name, Path: s.Name,
				Detail: fmt.Sprintf("the lock records %d key(s) of %s for it and needs %d; run `skillgit sync --update %s`, which verifies it", good, t.File, t.Need, s.Name)})
		}
	}
	return out, nil
}
