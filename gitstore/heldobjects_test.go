package gitstore

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// bigTree writes a tree of n blobs, the blob of entry k being edit when k is at, and
// returns it.
func bigTree(t *testing.T, r *Repo, n, at int, edit string) Hash {
	t.Helper()
	var entries []TreeEntry
	for k := range n {
		body := fmt.Sprintf("skill %d\n", k)
		if k == at {
			body = edit
		}
		entries = append(entries, dir(fmt.Sprintf("skill-%05d", k), mustTree(t, r, file("SKILL.md", mustBlob(t, r, body)))))
	}
	return mustTree(t, r, entries...)
}

// packFiles lists the packs of r.
func packFiles(t *testing.T, r *Repo) []string {
	t.Helper()
	packs, err := filepath.Glob(filepath.Join(r.CommonDir(), "objects", "pack", "*.pack"))
	if err != nil {
		t.Fatal(err)
	}
	return packs
}

func TestHeldObjectsLandAsOnePackWithDeltas(t *testing.T) {
	r := diskRepo(false)(t)
	r.Holds().Hold()
	var trees []Hash
	for k := range 20 {
		trees = append(trees, bigTree(t, r, 400, k*7, fmt.Sprintf("edit %d\n", k)))
	}
	top := mustCommit(t, r, trees[len(trees)-1], "held")
	if out, err := gitErr(r.WorktreeDir(), "", "cat-file", "-e", trees[0].String()); err == nil {
		t.Fatalf("git reads a held tree before Land: %s", out)
	}
	if !r.Objects().Has(trees[3]) {
		t.Error("Has does not see a held tree")
	}
	if got, err := r.Objects().ReadTree(trees[5]); err != nil || len(got) != 400 {
		t.Errorf("a held tree read back has %d entries (%v), want 400", len(got), err)
	}
	if err := r.Updates().Update("refs/heads/main", top, ZeroHash, "held"); err != nil {
		t.Fatal(err)
	}
	if err := r.Holds().Land(nil); err != nil {
		t.Fatal(err)
	}
	packs := packFiles(t, r)
	if len(packs) != 1 {
		t.Fatalf("packs after Land: %v, want one", packs)
	}
	if loose := gitRun(t, r.WorktreeDir(), "count-objects"); !strings.HasPrefix(loose, "0 objects") {
		t.Errorf("git count-objects after Land = %q, want no loose object", loose)
	}
	verify := gitRun(t, r.WorktreeDir(), "verify-pack", "-v", packs[0])
	if !strings.Contains(verify, "chain length = 1:") {
		t.Errorf("the pack of 20 edits of one tree stores none as a delta:\n%s", lastLines(verify, 6))
	}
	gitRun(t, r.WorktreeDir(), "fsck", "--strict", "--no-dangling")
	for _, h := range trees {
		if got := gitRun(t, r.WorktreeDir(), "rev-parse", h.String()+"^{tree}"); strings.TrimSpace(got) != h.String() {
			t.Errorf("git reads tree %s as %s", h, got)
		}
	}
	if st, err := os.Stat(packs[0]); err != nil || st.Size() > 200_000 {
		t.Errorf("the pack is %v bytes (%v), want the 20 trees of 20 KB each stored as deltas", st.Size(), err)
	}
}

func TestHeldObjectsDropped(t *testing.T) {
	r := diskRepo(false)(t)
	r.Holds().Hold()
	h := mustBlob(t, r, "held only")
	if !r.Objects().Has(h) {
		t.Fatal("Has does not see a held blob")
	}
	r.Holds().Drop()
	if r.Objects().Has(h) {
		t.Error("a dropped held blob is still there")
	}
	if packs := packFiles(t, r); len(packs) != 0 {
		t.Errorf("Drop wrote packs: %v", packs)
	}
	again := mustBlob(t, r, "after the drop")
	if out, err := gitErr(r.WorktreeDir(), "", "cat-file", "-e", again.String()); err != nil {
		t.Errorf("a blob written after Drop is not on disk: %v %s", err, out)
	}
}

func TestHeldObjectsPackedPastTheBound(t *testing.T) {
	r := diskRepo(false)(t)
	r.Holds().Hold()
	rng := rand.New(rand.NewPCG(1, 2))
	var blobs []Hash
	for range heldObjectBytes/(1<<20) + 2 {
		b := make([]byte, 1<<20)
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		h, err := r.Writes().WriteBlob(b)
		if err != nil {
			t.Fatal(err)
		}
		blobs = append(blobs, h)
	}
	if packs := packFiles(t, r); len(packs) != 1 {
		t.Fatalf("held objects past %d bytes made packs %v, want one", heldObjectBytes, packs)
	}
	for _, h := range blobs {
		if b, err := r.Objects().ReadBlob(h, 2<<20); err != nil || len(b) != 1<<20 {
			t.Fatalf("blob %s read back: %d bytes, %v", h, len(b), err)
		}
	}
	r.Holds().Drop()
	if _, err := gitErr(r.WorktreeDir(), "", "cat-file", "-e", blobs[0].String()); err != nil {
		t.Errorf("a blob packed past the bound is gone after Drop: %v", err)
	}
}

// TestMakeDeltaInterop packs edited versions of a file, each a delta of the one before,
// and has git read every one back: edits at the start, the middle and the end, growing and
// shrinking, and copies longer than one instruction takes.
func TestMakeDeltaInterop(t *testing.T) {
	r := diskRepo(false)(t)
	rng := rand.New(rand.NewPCG(3, 4))
	base := make([]byte, 200_000)
	for i := range base {
		base[i] = byte('a' + rng.UintN(26))
	}
	objs := []heldObject{{t: plumbing.BlobObject, data: base}}
	for k := range 60 {
		prev := objs[len(objs)-1].data
		at := rng.IntN(len(prev))
		if k%3 == 0 {
			at = []int{0, len(prev) - 1, len(prev) / 2}[k%3]
		}
		cut := min(len(prev)-at, rng.IntN(300))
		next := append(append(bytes.Clone(prev[:at]), bytes.Repeat([]byte{byte('A' + k)}, rng.IntN(400))...), prev[at+cut:]...)
		objs = append(objs, heldObject{t: plumbing.BlobObject, data: next})
	}
	held := &heldObjects{}
	for _, o := range objs {
		held.add(heldObject{h: plumbing.ComputeHash(o.t, o.data), t: o.t, size: len(o.data), data: o.data, base: -1})
	}
	for i, o := range objs {
		if got, err := held.content(i); err != nil || !bytes.Equal(got, o.data) {
			t.Fatalf("held object %d read back: %d bytes, %v; want %d", i, len(got), err, len(o.data))
		}
	}
	if _, err := writeHeldPack(filepath.Join(r.CommonDir(), "objects"), held); err != nil {
		t.Fatal(err)
	}
	for i, o := range held.list {
		got := gitRun(t, r.WorktreeDir(), "cat-file", "blob", o.h.String())
		if want, _ := held.content(i); got != string(want) {
			t.Fatalf("git reads blob %s back as %d bytes, want %d", o.h, len(got), len(want))
		}
	}
	verify := gitRun(t, r.WorktreeDir(), "verify-pack", "-v", packFiles(t, r)[0])
	if !strings.Contains(verify, "chain length = 50:") || strings.Contains(verify, "chain length = 51:") {
		t.Errorf("60 edits of one file are not chains of deltas at most %d long:\n%s", maxDeltaDepth, lastLines(verify, 8))
	}
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// TestHeldPacksJoined checks that the packs of successive held landings are joined into one
// every heldPackJoin of them, and that git reads every object of the joined pack, the deltas
// of each landing among them.
func TestHeldPacksJoined(t *testing.T) {
	r := diskRepo(false)(t)
	var trees []Hash
	for k := range heldPackJoin + 1 {
		r.Holds().Hold()
		for j := range 3 {
			trees = append(trees, bigTree(t, r, 100, j, fmt.Sprintf("landing %d edit %d\n", k, j)))
		}
		if err := r.Holds().Land(nil); err != nil {
			t.Fatal(err)
		}
	}
	packs := packFiles(t, r)
	if len(packs) != 2 {
		t.Fatalf("packs after %d landings: %d, want the joined one and the last", heldPackJoin+1, len(packs))
	}
	for _, p := range packs {
		gitRun(t, r.WorktreeDir(), "verify-pack", p)
	}
	var ids strings.Builder
	for _, h := range trees {
		ids.WriteString(h.String() + "\n")
	}
	if out := gitIn(t, r.WorktreeDir(), ids.String(), "cat-file", "--batch-check"); strings.Contains(out, "missing") {
		t.Errorf("git misses held trees after the join:\n%s", out)
	}
	for _, h := range trees {
		if _, err := r.Objects().ReadTree(h); err != nil {
			t.Errorf("tree %s after the join: %v", h, err)
		}
	}
}
