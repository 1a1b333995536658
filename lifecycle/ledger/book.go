package ledger

import (
	"errors"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/lifecycle/policy"
)

// Book is the ledger's reading of a skill repository as its publish branch stands: its
// candidates, their writers, approvals and states, its trail and who owns each skill, under
// the branch's policy. It only reads.
type Book struct {
	Git    Reader
	Config *policy.Config
	// Branch is the full name of the publish branch; Tip its commit and Tree its tree.
	Branch    string
	Tip, Tree gitstore.Hash
	// Ledger holds the steps derived so far, shared by the books of one repository.
	Ledger *Ledger
	// Find finds a published skill by name; PackOwners names the pack that owns each skill a
	// pack owns. They come from the read side, which the ledger does not import.
	Find       func(name string) (*catalog.Skill, error)
	PackOwners func() map[string]string

	signersMu sync.Mutex
	signers   *SignerFile

	openMu sync.Mutex
	open   *openViews
}

// ledger is the book's ledger.
func (b *Book) ledger() *Ledger { return b.Ledger }

// Where candidates live (DESIGN.md §2.3), and the canary channel.
const (
	// CandidatePrefix starts the name of a candidate's branch.
	CandidatePrefix = "refs/heads/candidate/"
	// ArchivePrefix starts the name of the ref that keeps a rejected candidate.
	ArchivePrefix = "refs/skillgit/archive/"
	// CanaryRef is the canary channel: the publish branch plus canary publishes.
	CanaryRef = "refs/heads/canary"
)

const canaryRef = CanaryRef

// Errors a reading of the history reports, and the lifecycle with it.
var (
	// ErrNotFound reports a skill or candidate that does not exist where it was looked for.
	ErrNotFound = errors.New("not found")
	// ErrRefused reports an action that policy or the audit does not allow.
	ErrRefused = errors.New("refused")
)

// readCommit reads commit h with its claims.
func (b *Book) readCommit(h gitstore.Hash) (Commit, error) { return ReadCommit(b.Git, h) }

// LoadChain reads candidate id's commits back from tip, held by ref, to its propose commit.
// A chain is read once for the ledger: its commits never change.
func (b *Book) LoadChain(id, ref string, tip gitstore.Hash) (*Chain, error) {
	if b.Ledger != nil {
		return b.Ledger.loadChain(b.Git, id, ref, tip)
	}
	return LoadChain(b.Git, id, ref, tip)
}

// treeOf is the root tree of commit h.
func (b *Book) treeOf(h gitstore.Hash) (gitstore.Hash, error) {
	c, err := b.Git.Commit(h)
	if err != nil {
		return gitstore.ZeroHash, err
	}
	return c.TreeHash, nil
}

// FolderAt returns the tree of folder p in root tree tree, or ZeroHash when there is none.
func (b *Book) FolderAt(tree gitstore.Hash, p string) (gitstore.Hash, error) {
	return FolderAt(b.Git, tree, p)
}

// folderChanges lists the skill folders that differ between two root trees, and the paths
// outside any skill folder that differ.
func (b *Book) FolderChanges(baseRoot, headRoot gitstore.Hash) ([]FolderChange, []string, error) {
	d, err := DiffTrees(b.Git, b.Config.SkillsDir, baseRoot, headRoot)
	if err != nil {
		return nil, nil, err
	}
	if d.Outside {
		return d.Folders, append([]string{"files outside " + b.Config.SkillsDir + "/"}, d.Stray...), nil
	}
	return d.Folders, d.Stray, nil
}

// actorOf is who a signature names.
func actorOf(sig object.Signature) Actor { return Actor{Name: sig.Name, Email: sig.Email} }
