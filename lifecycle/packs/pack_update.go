package packs

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"

	"github.com/skillgit/skillgit/lifecycle"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// packFetchTimeout bounds the network work of one pack update.
const packFetchTimeout = 10 * time.Minute

// configBase is the folder a relative local path in the configuration starts from: the
// working tree's root, or the git folder of a bare repository.
func configBase(r *lifecycle.Repo) string {
	if wt := r.Git().WorktreeDir(); wt != "" {
		return wt
	}
	if d := r.Git().CommonDir(); d != "" {
		return d
	}
	return r.Dir()
}

// UpdateOptions says who updates packs and where the fetch reports progress.
type UpdateOptions struct {
	lifecycle.ActOptions
	// Context bounds the network work; nil means no bound.
	Context context.Context
	// Progress receives the remote's progress messages; nil keeps them quiet.
	Progress io.Writer
	// Lenient admits, for this update, what lenient loading accepts, as if every pack set
	// lenient: true.
	Lenient bool
	// Step, when set, is told how many of a pack's changes are proposed: from none, before
	// the first, to all of them, one pack after another. A caller shows it as progress.
	Step func(done, total int)
	// Brief keeps of each candidate in the result only what a report in text prints (its id,
	// change, skill and risk), not the skills it overlaps, which its propose commit records
	// as trailers: a pack of 10,000 similar skills would keep megabytes of them.
	Brief bool
}

// step tells Step, if any, that done of total changes are proposed.
func (o UpdateOptions) step(done, total int) {
	if o.Step != nil {
		o.Step(done, total)
	}
}

// packChange is one skill a pack update proposes to create, patch or delete.
type packChange struct {
	name   string
	change lifecycle.Change
	skill  *packSkill // what is proposed; nil for a deletion
	want   gitstore.Hash
}

// Update fetches each configured pack (or only the one called name) and proposes every
// selected skill that is new, changed or gone since what is published as a candidate
// carrying Skillgit-Pack: NAME@COMMIT, then pins the fetched commit in the lock file on the
// publish branch. Each pack is updated on its own: a pack that fails records its error in
// its Result and the others go on. Within a pack, a skill that is invalid, holds a link, a
// submodule or an unsafe name, or has a name taken by another pack or by a skill of the
// repository is skipped with its reason, and the rest is proposed.
func Update(r *lifecycle.Repo, name string, o UpdateOptions) ([]*Result, error) {
	packs := r.Config().Packs
	if name != "" {
		p, ok := pack(r, name)
		if !ok {
			return nil, fmt.Errorf("pack %s: %w in %s; `skillgit pack add` records one", name, lifecycle.ErrNotFound, policy.ConfigFile)
		}
		packs = []policy.Pack{p}
	}
	if len(packs) == 0 {
		return nil, fmt.Errorf("no packs in %s; `skillgit pack add NAME SOURCE` records one", policy.ConfigFile)
	}
	out := make([]*Result, 0, len(packs))
	for _, p := range packs {
		up, err := updatePack(r, p, o)
		if up == nil {
			up = &Result{Pack: p.Name, URL: p.URL, Candidates: []*lifecycle.Result{}, Unchanged: []string{}, Skipped: []Skipped{}}
		}
		if err != nil {
			up.Error, up.failed = err.Error(), err
		}
		out = append(out, up)
	}
	return out, nil
}

func updatePack(r *lifecycle.Repo, p policy.Pack, o UpdateOptions) (*Result, error) {
	p.Lenient = p.Lenient || o.Lenient
	if err := r.Reload(); err != nil {
		return nil, err
	}
	fp, sv, err := fetchChecked(r, p, o)
	if err != nil {
		return nil, err
	}
	defer fp.close()
	up := &Result{Pack: p.Name, URL: p.URL, Ref: fp.ref, Fetched: fp.commit.String(), Candidates: []*lifecycle.Result{},
		Unchanged: []string{}, Skipped: sv.skipped}
	changes, err := planPack(r, p, sv, up)
	if err != nil {
		return up, err
	}
	err = r.Batch(func() error { return proposePack(r, p, fp, changes, up, o) })
	if err != nil {
		return up, err
	}
	err = pinPack(r, p, fp, sv, up, o.ActOptions)
	return up, err
}

// fetchChecked fetches a pack into a temporary repository, checks its tree and sorts out its
// skills; nothing is written to the skill repository. The caller closes the fetched pack.
func fetchChecked(r *lifecycle.Repo, p policy.Pack, o UpdateOptions) (*fetchedPack, *survey, error) {
	if err := checkPackName(p.Name); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", policy.ConfigFile, err)
	}
	var err error
	if p.URL, err = normalizeURL(p.URL, configBase(r)); err != nil {
		return nil, nil, fmt.Errorf("%s: pack %s: %w", policy.ConfigFile, p.Name, err)
	}
	return fetchSurvey(o.Context, p, o.Progress)
}

// fetchSurvey fetches the pack p, whose URL is ready to use, into a temporary repository
// within the fetch timeout, checks it and sorts out its skills.
func fetchSurvey(ctx context.Context, p policy.Pack, progress io.Writer) (*fetchedPack, *survey, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, packFetchTimeout)
	defer cancel()
	fp, err := fetchPack(ctx, p, progress)
	if err != nil {
		return nil, nil, err
	}
	if err := fp.check(p.Name); err != nil {
		fp.close()
		return nil, nil, err
	}
	sv, err := fp.survey(p)
	if err != nil {
		fp.close()
		return nil, nil, err
	}
	return fp, sv, nil
}

// planPack compares the pack's skills with the published skills that came from it. A pack
// skill whose name belongs to another pack, or to a published skill that did not come from
// this pack, is skipped as a conflict.
func planPack(r *lifecycle.Repo, p policy.Pack, sv *survey, up *Result) ([]packChange, error) {
	lock, err := readPackLock(r, r.Tree())
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
	var changes []packChange
	for _, s := range sv.skills {
		pub := published[s.name]
		if why := clash(p, s, pub, owners[s.name]); why != "" {
			up.Skipped = append(up.Skipped, Skipped{Skill: s.name, Kind: SkipConflict, Reason: why})
			continue
		}
		c := packChange{name: s.name, change: lifecycle.ChangeCreate, skill: s, want: s.want}
		if pub != nil {
			old, err := r.FolderAt(r.Tree(), pub.Dir)
			if err != nil {
				return nil, err
			}
			if old == s.want {
				up.Unchanged = append(up.Unchanged, s.name)
				continue
			}
			c.change = lifecycle.ChangePatch
		}
		changes = append(changes, c)
	}
	for n, owner := range owners {
		switch {
		case owner != p.Name || published[n] == nil:
		case sv.notSelected[n]:
			up.NotSelected = append(up.NotSelected, n)
		case !sv.present[n]:
			changes = append(changes, packChange{name: n, change: lifecycle.ChangeDelete})
		}
	}
	sort.Strings(up.NotSelected)
	sort.Slice(up.Skipped, func(i, j int) bool { return up.Skipped[i].Skill < up.Skipped[j].Skill })
	sort.Slice(changes, func(i, j int) bool { return changes[i].name < changes[j].name })
	return changes, nil
}

// clash says why a pack skill's name is taken by a skill that did not come from the pack, or
// "" when it is not.
func clash(p policy.Pack, s *packSkill, pub *catalog.Skill, owner string) string {
	switch {
	case owner != "" && owner != p.Name:
		return fmt.Sprintf("%s (%s) is owned by pack %s; give one of the packs a prefix (prefix: %s- under the pack in %s, or pack add --prefix %s-) or leave it out (exclude: [%s])",
			s.name, s.file, owner, p.Name, policy.ConfigFile, p.Name, s.orig)
	case pub != nil && owner != p.Name:
		return fmt.Sprintf("%s (%s) has the name of the published skill %s, which did not come from this pack; give the pack a prefix (prefix: %s-) or leave it out (exclude: [%s])",
			s.name, s.file, pub.File(), p.Name, s.orig)
	}
	return ""
}

// publishedByName maps the names of the published skills to them.
func publishedByName(r *lifecycle.Repo) (map[string]*catalog.Skill, error) {
	res, err := r.Published().List()
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
// proposes. A change that cannot be proposed is skipped with its reason.
func proposePack(r *lifecycle.Repo, p policy.Pack, fp *fetchedPack, changes []packChange, up *Result, o UpdateOptions) error {
	if len(changes) == 0 {
		return nil
	}
	pending, err := pendingPackChanges(r, p.Name)
	if err != nil {
		return err
	}
	pp := &packProposer{r: r, o: o, up: up, pending: pending,
		value: p.Name + "@" + fp.commit.String(),
		body:  fmt.Sprintf("From pack %s (%s, %s) at %s.", p.Name, p.URL, gitstore.ShortRef(fp.ref), fp.commit), pack: p.Name}
	for done := 0; done < len(changes); {
		done += pp.heldChunk(changes, done)
	}
	o.step(len(changes), len(changes))
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
	props, err := r.Book().PackProposals(name)
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
func pinPack(r *lifecycle.Repo, p policy.Pack, fp *fetchedPack, sv *survey, up *Result, o lifecycle.ActOptions) error {
	sig, _, err := r.Actor(o)
	if err != nil {
		return err
	}
	res, err := lifecycle.RetryCAS(r, func() (*lifecycle.Result, error) {
		lock, err := readPackLock(r, r.Tree())
		if err != nil {
			return nil, err
		}
		entry, err := ownedAfter(r, p.Name, lock, fp, sv, up)
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

// ownedAfter is the pack's lock entry after the update: the skills it proposed or has
// published as it has them, and the ones it brought that are still published, except those
// its selection now leaves out and those skipped as conflicts.
func ownedAfter(r *lifecycle.Repo, name string, lock *packLock, fp *fetchedPack, sv *survey, up *Result) (lockedPack, error) {
	published, err := publishedByName(r)
	if err != nil {
		return lockedPack{}, err
	}
	notOwned := map[string]bool{}
	for _, s := range up.Skipped {
		notOwned[s.Skill] = s.Kind == SkipConflict || published[s.Skill] == nil
	}
	owned := map[string]bool{}
	for _, s := range sv.skills {
		if !notOwned[s.name] {
			owned[s.name] = true
		}
	}
	if old := lock.get(name); old != nil {
		for _, n := range old.Skills {
			if published[n] != nil && !sv.notSelected[n] {
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

func pinMessage(p policy.Pack, fp *fetchedPack, up *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "pack: update %s to %s\n\nFetched %s (%s) at %s.", p.Name, short7(fp.commit), p.URL, gitstore.ShortRef(fp.ref), fp.commit)
	if len(up.Candidates) > 0 {
		b.WriteString("\n\nCandidates:")
		for _, c := range up.Candidates {
			fmt.Fprintf(&b, "\n  %s (%s %s)", c.ID, c.Change, c.Skill)
		}
	}
	return b.String()
}
