package packs

import (
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"

	"github.com/skillgit/skillgit/lifecycle"
)

// packFetchTimeout bounds the network work of one pack update.
const packFetchTimeout = 10 * time.Minute

// configBase is the folder a relative local path in the configuration starts from: the
// working tree's root, or the git folder of a bare repository.
func configBase(r *lifecycle.Repo) string {
	if wt := r.Git.WorktreeDir(); wt != "" {
		return wt
	}
	if d := r.Git.CommonDir(); d != "" {
		return d
	}
	return r.Dir
}

// UpdateOptions says who updates packs and where the fetch reports progress.
type UpdateOptions struct {
	lifecycle.ActOptions
	// Context bounds the network work; nil means no bound.
	Context context.Context
	// Progress receives the remote's progress messages; nil keeps them quiet.
	Progress io.Writer
}

// Result reports what updating one pack did.
type Result struct {
	Pack string `json:"pack"`
	URL  string `json:"url"`
	// Ref is the ref that was fetched, e.g. refs/heads/main.
	Ref string `json:"ref"`
	// Previous is the pin before the update, empty the first time.
	Previous string `json:"previous,omitempty"`
	// Fetched is the pack commit fetched, the new pin.
	Fetched string `json:"fetched"`
	// Candidates are the candidates made, one for each new, changed or deleted skill.
	Candidates []*lifecycle.Result `json:"candidates"`
	// Pending are changes that an open candidate already proposes, as "skill (id)".
	Pending []string `json:"pending,omitempty"`
	// Rejected are changes that a rejected candidate proposed, as "skill (id)"; they are not
	// proposed again until the pack changes the skill once more.
	Rejected []string `json:"rejected,omitempty"`
	// Unchanged are the pack's skills published exactly as the pack has them.
	Unchanged []string `json:"unchanged"`
	// Commit is the publish-branch commit that moved the pin, empty when the pin stayed.
	Commit string `json:"commit,omitempty"`
	// PolicyCandidate is, with server.protect on, the policy candidate that proposes moving
	// the pin, which people approve and publish.
	PolicyCandidate string   `json:"policy_candidate,omitempty"`
	Warnings        []string `json:"-"`
}

// packChange is one skill a pack update proposes to create, patch or delete.
type packChange struct {
	name   string
	change lifecycle.Change
	dir    string        // the skill's folder in the pack's tree; empty for a deletion
	want   gitstore.Hash // the folder's tree as it would be stored; zero for a deletion
}

// Update fetches each configured pack (or only the one called name) and proposes every
// skill that is new, changed or gone since what is published as a candidate carrying
// Skillgit-Pack: NAME@COMMIT, then pins the fetched commit in the lock file on the publish
// branch. A pack holding links, submodules or unsafe names, an invalid skill, or a skill whose
// name is taken by a skill that did not come from the pack is refused before anything is
// written.
func Update(r *lifecycle.Repo, name string, o UpdateOptions) ([]*Result, error) {
	packs := r.Config.Packs
	if name != "" {
		p, ok := pack(r, name)
		if !ok {
			return nil, fmt.Errorf("pack %s: %w in %s; `skillgit pack add` records one", name, lifecycle.ErrNotFound, lifecycle.ConfigFile)
		}
		packs = []lifecycle.Pack{p}
	}
	if len(packs) == 0 {
		return nil, fmt.Errorf("no packs in %s; `skillgit pack add NAME URL` records one", lifecycle.ConfigFile)
	}
	var out []*Result
	for _, p := range packs {
		up, err := updatePack(r, p, o)
		if up != nil {
			out = append(out, up)
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

func updatePack(r *lifecycle.Repo, p lifecycle.Pack, o UpdateOptions) (*Result, error) {
	if err := r.Reload(); err != nil {
		return nil, err
	}
	fp, skills, err := fetchChecked(r, p, o)
	if err != nil {
		return nil, err
	}
	up := &Result{Pack: p.Name, URL: p.URL, Ref: fp.ref, Fetched: fp.commit.String(), Candidates: []*lifecycle.Result{}, Unchanged: []string{}}
	changes, err := planPack(r, p, fp, skills, up)
	if err != nil {
		return nil, err
	}
	if err := proposePack(r, p, fp, changes, up, o.ActOptions); err != nil {
		return up, err
	}
	err = pinPack(r, p, fp, skills, up, o.ActOptions)
	return up, err
}

// fetchChecked fetches a pack into memory and checks its tree and its skills; nothing is
// written to the repository.
func fetchChecked(r *lifecycle.Repo, p lifecycle.Pack, o UpdateOptions) (*fetchedPack, []*catalog.Skill, error) {
	if err := checkPackName(p.Name); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", lifecycle.ConfigFile, err)
	}
	var err error
	if p.URL, err = normalizeURL(p.URL, configBase(r)); err != nil {
		return nil, nil, fmt.Errorf("%s: pack %s: %w", lifecycle.ConfigFile, p.Name, err)
	}
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, packFetchTimeout)
	defer cancel()
	fp, err := fetchPack(ctx, p, o.Progress)
	if err != nil {
		return nil, nil, err
	}
	if err := fp.check(p.Name); err != nil {
		return nil, nil, err
	}
	skills, err := fp.skills(p.Name)
	return fp, skills, err
}

// skills discovers the pack's skills and requires every one to be strictly valid.
func (fp *fetchedPack) skills(name string) ([]*catalog.Skill, error) {
	res, err := catalog.Discover(fp.mem.TreeFS(fp.tree), ".", catalog.Options{Mode: catalog.Strict, FrontmatterOnly: true})
	if err != nil {
		return nil, fmt.Errorf("pack %s: %w", name, err)
	}
	if err := res.Err(); err != nil {
		return nil, fmt.Errorf("pack %s at %s (folder %s): %w; nothing was written", name, short7(fp.commit), fp.folder, err)
	}
	if len(res.Skills) == 0 {
		return nil, fmt.Errorf("pack %s: no skills in folder %s at %s; set the pack's path to its skills folder", name, fp.folder, short7(fp.commit))
	}
	for _, s := range res.Skills {
		s.Dir = path.Join(fp.folder, s.Dir)
	}
	return res.Skills, nil
}

// planPack compares the pack's skills with the published skills that came from it. A pack
// skill whose name belongs to a published skill that did not come from this pack, or to
// another pack, is a conflict.
func planPack(r *lifecycle.Repo, p lifecycle.Pack, fp *fetchedPack, skills []*catalog.Skill, up *Result) ([]packChange, error) {
	lock, err := readPackLock(r, r.Tree)
	if err != nil {
		return nil, err
	}
	if l := lock.get(p.Name); l != nil {
		up.Previous = l.Commit
	}
	owners := lock.owners()
	published, err := publishedByName(r)
	if err != nil {
		return nil, err
	}
	root, _ := fp.mem.Commit(fp.commit)
	fsys := fp.mem.TreeFS(root.TreeHash)
	var changes []packChange
	inPack := map[string]bool{}
	for _, s := range skills {
		inPack[s.Name] = true
		pub := published[s.Name]
		if err := clash(p, s, pub, owners[s.Name]); err != nil {
			return nil, err
		}
		want, err := gitstore.HashDir(fsys, s.Dir)
		if err != nil {
			return nil, fmt.Errorf("pack %s: %s: %w", p.Name, s.Dir, err)
		}
		c := packChange{name: s.Name, change: lifecycle.ChangeCreate, dir: s.Dir, want: want}
		if pub != nil {
			old, err := r.FolderAt(r.Tree, pub.Dir)
			if err != nil {
				return nil, err
			}
			if old == want {
				up.Unchanged = append(up.Unchanged, s.Name)
				continue
			}
			c.change = lifecycle.ChangePatch
		}
		changes = append(changes, c)
	}
	for n, owner := range owners {
		if owner == p.Name && !inPack[n] && published[n] != nil {
			changes = append(changes, packChange{name: n, change: lifecycle.ChangeDelete})
		}
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].name < changes[j].name })
	return changes, nil
}

// clash reports a pack skill whose name is taken by a skill that did not come from the pack.
func clash(p lifecycle.Pack, s *catalog.Skill, pub *catalog.Skill, owner string) error {
	where := fmt.Sprintf("%s in pack %s", s.File(), p.Name)
	switch {
	case owner != "" && owner != p.Name:
		return fmt.Errorf("pack %s: %w: skill %s (%s) has the name of skill %s of pack %s; skill names are unique, so remove it from one of the packs",
			p.Name, lifecycle.ErrConflict, s.Name, where, s.Name, owner)
	case pub != nil && owner != p.Name:
		return fmt.Errorf("pack %s: %w: skill %s (%s) has the name of the published skill %s, which did not come from this pack; rename or remove one of them",
			p.Name, lifecycle.ErrConflict, s.Name, where, pub.File())
	}
	return nil
}

// publishedByName maps the names of the published skills to them.
func publishedByName(r *lifecycle.Repo) (map[string]*catalog.Skill, error) {
	res, err := r.Published()
	if err != nil {
		return nil, err
	}
	out := make(map[string]*catalog.Skill, len(res.Skills))
	for _, s := range res.Skills {
		out[s.Name] = s
	}
	return out, nil
}

// proposePack makes one candidate for each change that no open candidate of the pack already
// proposes.
func proposePack(r *lifecycle.Repo, p lifecycle.Pack, fp *fetchedPack, changes []packChange, up *Result, o lifecycle.ActOptions) error {
	if len(changes) == 0 {
		return nil
	}
	pending, err := pendingPackChanges(r, p.Name)
	if err != nil {
		return err
	}
	root, err := fp.mem.Commit(fp.commit)
	if err != nil {
		return err
	}
	value := p.Name + "@" + fp.commit.String()
	body := fmt.Sprintf("From pack %s (%s, %s) at %s.", p.Name, p.URL, short(fp.ref), fp.commit)
	for _, c := range changes {
		if seen, ok := pending[pendingKey(c.name, c.want)]; ok {
			if seen.rejected {
				up.Rejected = append(up.Rejected, c.name+" ("+seen.id+")")
			} else {
				up.Pending = append(up.Pending, c.name+" ("+seen.id+")")
			}
			continue
		}
		po := lifecycle.ProposeOptions{ActOptions: o, Target: c.name, Pack: value, Message: body}
		if c.change == lifecycle.ChangeDelete {
			po.Delete = true
		} else {
			po.Source, po.SourceDir = fp.mem.TreeFS(root.TreeHash), c.dir
		}
		res, err := r.Propose(po)
		if err != nil {
			return fmt.Errorf("pack %s: %s: %w", p.Name, c.name, err)
		}
		up.Candidates = append(up.Candidates, res)
		up.Warnings = append(up.Warnings, res.Warnings...)
	}
	return nil
}

func pendingKey(skill string, tree gitstore.Hash) string { return skill + " " + tree.String() }

// proposed is a candidate of a pack that is open, or was rejected.
type proposed struct {
	id       string
	rejected bool
}

// pendingPackChanges maps each open or rejected candidate of pack name, by skill and the
// folder it proposes (zero for a deletion), to its id. An open candidate wins over a rejected
// one of the same change.
func pendingPackChanges(r *lifecycle.Repo, name string) (map[string]proposed, error) {
	props, err := r.PackProposals(name)
	if err != nil {
		return nil, err
	}
	out := map[string]proposed{}
	for _, p := range props {
		key := pendingKey(p.Skill, p.Folder)
		if old, ok := out[key]; !ok || old.rejected && !p.Rejected {
			out[key] = proposed{id: p.ID, rejected: p.Rejected}
		}
	}
	return out, nil
}

// pinPack records the fetched commit and the skills the pack owns in the lock file, with a
// commit on the publish branch, unless the lock already says so. The pack owns its skills and
// the ones it brought that are still published (a deletion not published yet).
func pinPack(r *lifecycle.Repo, p lifecycle.Pack, fp *fetchedPack, skills []*catalog.Skill, up *Result, o lifecycle.ActOptions) error {
	sig, _, err := r.Actor(o)
	if err != nil {
		return err
	}
	res, err := lifecycle.RetryCAS(r, func() (*lifecycle.Result, error) {
		lock, err := readPackLock(r, r.Tree)
		if err != nil {
			return nil, err
		}
		entry, err := ownedAfter(r, p.Name, lock, fp, skills)
		if err != nil {
			return nil, err
		}
		if old := lock.get(p.Name); old != nil && old.Commit == entry.Commit && slices.Equal(old.Skills, entry.Skills) {
			return &lifecycle.Result{}, nil
		}
		lock.set(entry)
		return commitPackFiles(r, sig, o, nil, lock, pinMessage(p, fp, up), p.Name+"@"+fp.commit.String())
	})
	if err != nil {
		return fmt.Errorf("pack %s: the candidates are made, but pinning %s failed: %w", p.Name, short7(fp.commit), err)
	}
	if res.ID != "" {
		up.PolicyCandidate = res.ID
		return nil
	}
	up.Commit = res.Commit
	return nil
}

func ownedAfter(r *lifecycle.Repo, name string, lock *packLock, fp *fetchedPack, skills []*catalog.Skill) (lockedPack, error) {
	published, err := publishedByName(r)
	if err != nil {
		return lockedPack{}, err
	}
	owned := map[string]bool{}
	for _, s := range skills {
		owned[s.Name] = true
	}
	if old := lock.get(name); old != nil {
		for _, n := range old.Skills {
			if published[n] != nil {
				owned[n] = true
			}
		}
	}
	names := make([]string, 0, len(owned))
	for n := range owned {
		names = append(names, n)
	}
	sort.Strings(names)
	return lockedPack{Name: name, Commit: fp.commit.String(), Skills: names}, nil
}

func pinMessage(p lifecycle.Pack, fp *fetchedPack, up *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "pack: update %s to %s\n\nFetched %s (%s) at %s.", p.Name, short7(fp.commit), p.URL, short(fp.ref), fp.commit)
	if len(up.Candidates) > 0 {
		b.WriteString("\n\nCandidates:")
		for _, c := range up.Candidates {
			fmt.Fprintf(&b, "\n  %s (%s %s)", c.ID, c.Change, c.Skill)
		}
	}
	return b.String()
}
