package agentsync

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/internal/atomicfile"
	"github.com/skillgit/skillgit/internal/boundedfile"
	"github.com/skillgit/skillgit/lifecycle/ledger"
)

// Proving a publish reads its candidate's commits and checks a signature per approval. A
// publish never changes, so the proofs a project's trust made are kept beside the skill
// repository's other caches, in a file per allowed-signers file and count, and a later sync
// takes them from there; the ledger checks each kept proof's keys against the project's file
// again before it uses one. Like every cache of skillgit, it can be deleted at any time.

const (
	// maxProofCache bounds what is read of a proof cache; a larger one is ignored and rewritten.
	maxProofCache = 32 << 20
	// maxProofs bounds how many proofs a cache keeps, the newest last.
	maxProofs = 200_000
)

// proofCache is the file of proofs made under one trust.
type proofCache struct {
	file  string
	known map[plumbing.Hash]ledger.InstallProof
	order []plumbing.Hash // as read, then as added
	added bool
}

// openProofCache reads the proof cache of the trust whose allowed-signers file holds signers
// and that needs need approvals, kept in the git folder gitDir. A missing or damaged cache
// is empty.
func openProofCache(gitDir string, signers []byte, need int) *proofCache {
	h := sha256.New()
	fmt.Fprintf(h, "skillgit-proofs 1\n%d\n", need)
	h.Write(signers)
	name := hex.EncodeToString(h.Sum(nil))[:32]
	pc := &proofCache{file: filepath.Join(gitDir, "skillgit", "cache", "proofs", name), known: map[plumbing.Hash]ledger.InstallProof{}}
	data, _, err := boundedfile.Read(pc.file, maxProofCache)
	if err != nil {
		return pc
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if p, ok := parseProof(sc.Text()); ok {
			if _, seen := pc.known[p.Publish]; !seen {
				pc.order = append(pc.order, p.Publish)
			}
			pc.known[p.Publish] = p
		}
	}
	return pc
}

// parseProof reads one line of a proof cache: publish, root tree, then approver and key
// fingerprint pairs, separated by spaces.
func parseProof(line string) (ledger.InstallProof, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 || !plumbing.IsHash(f[0]) || !plumbing.IsHash(f[1]) {
		return ledger.InstallProof{}, false
	}
	p := ledger.InstallProof{Publish: plumbing.NewHash(f[0]), Root: plumbing.NewHash(f[1])}
	for i := 2; i < len(f); i += 2 {
		p.Approvers, p.Keys = append(p.Approvers, f[i]), append(p.Keys, f[i+1])
	}
	return p, true
}

// add keeps proof p, when it is new.
func (pc *proofCache) add(p ledger.InstallProof) {
	if _, ok := pc.known[p.Publish]; ok || len(p.Approvers) == 0 || len(p.Keys) != len(p.Approvers) {
		return
	}
	if slices.ContainsFunc(p.Approvers, func(s string) bool { return s == "" || strings.ContainsAny(s, " \t\n") }) {
		return
	}
	pc.known[p.Publish] = p
	pc.order = append(pc.order, p.Publish)
	pc.added = true
}

// save writes the cache when proofs were added, keeping the newest maxProofs. A cache that
// cannot be written is only a slower next sync.
func (pc *proofCache) save() {
	if !pc.added {
		return
	}
	order := pc.order[max(0, len(pc.order)-maxProofs):]
	var b bytes.Buffer
	for _, h := range order {
		p := pc.known[h]
		fmt.Fprintf(&b, "%s %s", p.Publish, p.Root)
		for i := range p.Approvers {
			fmt.Fprintf(&b, " %s %s", p.Approvers[i], p.Keys[i])
		}
		b.WriteByte('\n')
	}
	_ = atomicfile.Write(pc.file, b.Bytes(), atomicfile.Options{DirPerm: 0o700})
	pc.added = false
}
