package published_test

import (
	"fmt"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillgit/skillgit/gitstore"
)

// BenchmarkListProvenance lists the generated repository of 10,000 skills as `skillgit list
// --json` does: the catalog (served from its cache) and the pack each skill came from. NoLock
// has no pack lock on the branch, as a repository without packs; Lock has a lock that gives
// 50 skills spread over the repository to a pack that published none of them, so the history
// is read back to each one's last change (the plain commits' changes are kept in the trail
// cache after the first run).
func BenchmarkListProvenance(b *testing.B) {
	dir := benchRepo(b)
	b.Run("NoLock", func(b *testing.B) { benchProvenance(b, dir) })
	locked := filepath.Join(b.TempDir(), "locked")
	if out, err := exec.Command("cp", "-a", dir, locked).CombinedOutput(); err != nil {
		b.Fatalf("cp: %v: %s", err, out)
	}
	addLock(b, locked, 50)
	b.Run("Lock", func(b *testing.B) { benchProvenance(b, locked) })
}

func benchProvenance(b *testing.B, dir string) {
	listProvenance(b, dir)
	b.ReportAllocs()
	for b.Loop() {
		listProvenance(b, dir)
	}
}

// listProvenance opens the repository, lists it and reads the provenance of every skill.
func listProvenance(b *testing.B, dir string) {
	r, res := openPublished(b, dir)
	defer r.Close()
	names := make([]string, len(res.Skills))
	for i, s := range res.Skills {
		names[i] = path.Base(s.Dir)
	}
	packs, err := r.Published().PackProvenance(names)
	if err != nil {
		b.Fatal(err)
	}
	if len(packs) != 0 {
		b.Fatalf("%d skills came from a pack; want none, as no pack published any", len(packs))
	}
}

// addLock commits on the publish branch a pack lock that gives n of its skills to a pack.
func addLock(b *testing.B, dir string, n int) {
	r, res := openPublished(b, dir)
	defer r.Close()
	var lock strings.Builder
	lock.WriteString("packs:\n  - name: demo\n    commit: " + strings.Repeat("ab", 20) + "\n    skills:\n")
	step := max(len(res.Skills)/n, 1)
	for i := 0; i < len(res.Skills); i += step {
		fmt.Fprintf(&lock, "      - %s\n", path.Base(res.Skills[i].Dir))
	}
	blob, err := r.Git().Writes().WriteBlob([]byte(lock.String()))
	if err != nil {
		b.Fatal(err)
	}
	tree, err := r.Git().Writes().ReplacePath(r.Tree(), ".skillgit/packs.lock", &gitstore.TreeEntry{Name: "packs.lock", Mode: filemode.Regular, Hash: blob})
	if err != nil {
		b.Fatal(err)
	}
	sig := object.Signature{Name: "Bench", Email: "bench@example.com", When: time.Now()}
	h, err := r.Git().Writes().WriteCommit(gitstore.CommitSpec{Tree: tree, Parents: []gitstore.Hash{r.Tip()}, Author: sig, Committer: sig, Message: "pin a pack by hand\n"})
	if err != nil {
		b.Fatal(err)
	}
	if err := r.Git().Updates().Update(r.Branch(), h, r.Tip(), "bench"); err != nil {
		b.Fatal(err)
	}
}
