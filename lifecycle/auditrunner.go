package lifecycle

import (
	"errors"
	"fmt"
	"path"

	"github.com/skillgit/skillgit/audit"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/auditrun"
	"github.com/skillgit/skillgit/lifecycle/published"
)

// AuditRunner is the audit of the repository, at the publish branch's tip it was opened at.
// It lists skills and reads the findings approvals accepted through the repository.
func (r *Repo) AuditRunner() *auditrun.Runner {
	return &auditrun.Runner{Git: r.git, Config: r.cfg, Branch: r.branch, Tip: r.tip, Tree: r.tree,
		Skills: r.commitItems, Accepts: r.pushedAccepts}
}

// Audit runs the security audit a request asks for, in the skillgit repository at or above
// req.Dir if there is one: see auditrun.Audit.
func Audit(req auditrun.Request) (*auditrun.Result, error) {
	return auditrun.Audit(openAuditRunner, req)
}

// WriteAllowList adds the non-critical findings of reports to the allow list in the working
// tree of the repository at dir: see auditrun.WriteAllowList.
func WriteAllowList(dir string, reports []audit.SkillReport, reason string) (*auditrun.AllowWrite, error) {
	return auditrun.WriteAllowList(openAuditRunner, dir, reports, reason)
}

// openAuditRunner opens the audit of the skillgit repository at or above dir; nil when there
// is none.
func openAuditRunner(dir string) (*auditrun.Runner, error) {
	r, err := Open(dir)
	if errors.Is(err, ErrNotInitialized) || errors.Is(err, gitstore.ErrNotRepository) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return r.AuditRunner(), nil
}

// commitItems lists every skill folder of the root tree tree, which rev names.
func (r *Repo) commitItems(rev string, tree gitstore.Hash) ([]auditrun.Item, error) {
	res, err := published.CatalogAt(r.git, tree, r.cfg.SkillsDir, rev)
	if err != nil {
		return nil, err
	}
	items := make([]auditrun.Item, 0, len(res.Folders))
	for _, f := range res.Folders {
		e, ok, err := r.git.Objects().EntryAt(tree, f)
		if err != nil || !ok {
			return nil, fmt.Errorf("%s:%s: %w", rev, f, errors.Join(err, ErrNotFound))
		}
		items = append(items, auditrun.Item{Name: path.Base(f), Path: f, Tree: e.Hash})
	}
	return items, nil
}
