package initrepo

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/ledger"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// publishPack adds every skill of a pack (one folder per skill) to the skills folder in one
// publish commit. A pack skill must be strictly valid and must not clash with a published one.
func (in *initializer) publishPack(tree, parent gitstore.Hash, cfg *policy.Config, opts Options) (gitstore.Hash, gitstore.Hash, error) {
	res, err := catalog.Discover(opts.Pack, ".", catalog.Options{Mode: catalog.Strict, MaxDepth: 1})
	if err != nil {
		return tree, parent, err
	}
	if err := res.Err(); err != nil {
		return tree, parent, fmt.Errorf("pack %s: %w", opts.PackName, err)
	}
	verdict, err := in.auditPack(opts, res.Skills)
	if err != nil {
		return tree, parent, err
	}
	names := make([]string, 0, len(res.Skills))
	for _, s := range res.Skills {
		dst := path.Join(cfg.SkillsDir, s.Name)
		if _, ok, err := in.g.Objects().EntryAt(tree, dst); err != nil || ok {
			return tree, parent, clashError(err, dst, opts.PackName)
		}
		if tree, err = in.addFolder(tree, opts.Pack, s.Dir, dst); err != nil {
			return tree, parent, err
		}
		names = append(names, s.Name)
	}
	sort.Strings(names)
	in.res.Skills = names
	tip, err := in.commit(tree, parent, packMessage(opts, names, verdict))
	return tree, tip, err
}

func clashError(err error, dst, pack string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("pack %s: %s already exists on the publish branch; remove or rename one of them", pack, dst)
}

func (in *initializer) addFolder(tree gitstore.Hash, fsys fs.FS, src, dst string) (gitstore.Hash, error) {
	sub, err := in.g.Writes().WriteDir(fsys, src)
	if err != nil {
		return tree, err
	}
	return in.g.Writes().ReplacePath(tree, dst, &gitstore.TreeEntry{Mode: filemode.Dir, Hash: sub})
}

func packMessage(opts Options, names []string, v auditrun.Verdict) string {
	trailers := []gitstore.Trailer{{Key: ledger.KeyAction, Value: ledger.ActPublish}}
	for _, n := range names {
		trailers = append(trailers, gitstore.Trailer{Key: ledger.KeySkill, Value: n})
	}
	trailers = append(trailers,
		gitstore.Trailer{Key: ledger.KeyPack, Value: opts.PackName + "@" + opts.PackVersion},
		gitstore.Trailer{Key: ledger.KeyRisk, Value: v.Risk},
		gitstore.Trailer{Key: ledger.KeyAudit, Value: v.Audit})
	subject := fmt.Sprintf("publish: %s (%s pack)", strings.Join(names, ", "), opts.PackName)
	return gitstore.FormatMessage(subject, "", trailers)
}

// packFailOn is the risk at which a pack's skill stops its publish: a pack carries no policy
// of its own yet.
const packFailOn = audit.RiskHigh

// auditPack audits every skill of a pack; a high-risk skill stops the publish. The audit
// trailer carries the verdict the audit reached, as for any other change, so a pack with a
// medium-risk skill reads "needs review", never "pass".
func (in *initializer) auditPack(opts Options, skills []*catalog.Skill) (auditrun.Verdict, error) {
	if skip, warn := policy.AuditSkipped(nil, os.Getenv); skip {
		in.res.Warnings = append(in.res.Warnings, warn)
		return auditrun.SkippedVerdict, nil
	}
	reports := make([]audit.SkillReport, 0, len(skills))
	findings := 0
	for _, s := range skills {
		sub, err := fs.Sub(opts.Pack, s.Dir)
		if err != nil {
			return auditrun.Verdict{}, err
		}
		rep, err := audit.Scan(sub, audit.Options{Skill: s.Name})
		if err != nil {
			return auditrun.Verdict{}, fmt.Errorf("pack %s: %s: %w", opts.PackName, s.Name, err)
		}
		if rep.Risk >= packFailOn {
			return auditrun.Verdict{}, fmt.Errorf("pack %s: %s: %w: the audit rates it high risk; run `skillgit audit` on it for details", opts.PackName, s.Name, ledger.ErrRefused)
		}
		reports = append(reports, audit.SkillReport{Name: s.Name, Path: s.Dir, Report: rep})
		findings += len(rep.Findings)
	}
	return auditrun.VerdictOf(reports, packFailOn, findings), nil
}
