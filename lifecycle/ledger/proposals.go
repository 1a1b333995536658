package ledger

import (
	"strings"

	"github.com/skillgit/skillgit/gitstore"
)

// PackProposal is a candidate that came from a pack, as its branch holds it.
type PackProposal struct {
	ID    string
	Skill string
	// Folder is the tree of the skill's folder at the candidate's last commit; zero for a
	// deletion.
	Folder gitstore.Hash
	// Rejected is true for a candidate in the archive of rejected ones.
	Rejected bool
}

// PackProposals lists the open and the rejected candidates whose Skillgit-Pack trailer names
// pack name, without reading their approvals or state.
func (b *Book) PackProposals(name string) ([]PackProposal, error) {
	chains, err := b.Chains("rejected")
	if err != nil {
		return nil, err
	}
	var out []PackProposal
	for _, ch := range chains {
		prop := ch.Propose()
		if !strings.HasPrefix(prop.Claims.Get(KeyPack), name+"@") {
			continue
		}
		tree, err := b.FolderAt(ch.Last().C.TreeHash, ch.Path())
		if err != nil {
			return nil, err
		}
		out = append(out, PackProposal{ID: ch.ID, Skill: prop.Claims.Get(KeySkill), Folder: tree,
			Rejected: strings.HasPrefix(ch.Ref, ArchivePrefix)})
	}
	return out, nil
}
