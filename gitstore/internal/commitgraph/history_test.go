package commitgraph

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// skillNames are the folders history touches; two are not ASCII, so the
// Bloom filter hash versions differ on them.
var skillNames = []string{"pdf", "docx", "xlsx", "pptx", "brand-guide", "canvas",
	"café-tools", "日本語-notes", "web-test", "mcp-builder", "slack-gif", "theme"}

// skillFiles are the files each skill folder may hold.
var skillFiles = []string{"SKILL.md", "scripts/run.sh", "refs/deep/notes.md", "LICENSE.txt"}

// history writes a fast-import stream of commits: a main line with side
// branches merged back, criss-cross merges, an octopus merge, an empty
// commit, a commit that changes more than 512 files and a commit dated
// far in the future followed by ordinary dates (generation offsets that
// overflow 31 bits).
type history struct {
	b      strings.Builder
	rnd    *rand.Rand
	mark   int
	when   int64
	main   int // mark of main's tip
	refs   map[string]int
	prefix string // branch-name prefix, distinct per stage
}

func newHistory(seed uint64, prefix string, when int64) *history {
	return &history{rnd: rand.New(rand.NewPCG(seed, 7)), when: when, refs: map[string]int{}, prefix: prefix}
}

// commit writes one commit on top of parents (marks; none for a root) with
// the given file edits, and returns its mark.
func (h *history) commit(parents []int, edits map[string]string, when int64) int {
	h.mark++
	fmt.Fprintf(&h.b, "commit refs/heads/%sscratch\nmark :%d\n", h.prefix, h.mark)
	fmt.Fprintf(&h.b, "committer Test User <test@example.com> %d +0000\n", when)
	msg := fmt.Sprintf("change %d\n", h.mark)
	fmt.Fprintf(&h.b, "data %d\n%s", len(msg), msg)
	for i, p := range parents {
		verb := "merge"
		if i == 0 {
			verb = "from"
		}
		fmt.Fprintf(&h.b, "%s :%d\n", verb, p)
	}
	if len(parents) == 0 {
		h.b.WriteString("deleteall\n")
	}
	for path, content := range edits {
		if content == "" {
			fmt.Fprintf(&h.b, "D %s\n", path)
			continue
		}
		fmt.Fprintf(&h.b, "M 100644 inline %s\ndata %d\n%s", path, len(content), content)
	}
	h.b.WriteString("\n")
	return h.mark
}

// tick advances the clock and returns the new time.
func (h *history) tick() int64 {
	h.when += 60 + int64(h.rnd.IntN(600))
	return h.when
}

// edits picks one to three files to change, now and then a deletion.
func (h *history) edits() map[string]string {
	e := map[string]string{}
	for n := 1 + h.rnd.IntN(3); n > 0; n-- {
		path := "skills/" + skillNames[h.rnd.IntN(len(skillNames))] + "/" + skillFiles[h.rnd.IntN(len(skillFiles))]
		e[path] = fmt.Sprintf("content %d %d\n", h.mark, h.rnd.Int())
	}
	if h.rnd.IntN(12) == 0 {
		e["skills/"+skillNames[h.rnd.IntN(len(skillNames))]+"/LICENSE.txt"] = ""
	}
	return e
}

// line adds n commits on top of tip and returns the new tip.
func (h *history) line(tip, n int) int {
	for ; n > 0; n-- {
		var parents []int
		if tip > 0 {
			parents = []int{tip}
		}
		tip = h.commit(parents, h.edits(), h.tick())
	}
	return tip
}

// build adds about n commits to main (mark h.main, zero for a new
// history) in varied shapes.
func (h *history) build(n int, special bool) {
	start := h.mark
	if h.main == 0 {
		h.main = h.line(0, 3)
	}
	step := 0
	for h.mark-start < n {
		step++
		switch {
		case special && step == 5:
			h.octopus()
		case special && step == 9:
			h.main = h.commit([]int{h.main}, nil, h.tick()) // empty commit
		case special && step == 13:
			h.bulk()
		case special && step == 20:
			h.future()
		case step%4 == 0:
			h.merged()
		case step%7 == 0:
			h.crissCross(step)
		case step%9 == 0:
			h.refs[fmt.Sprintf("%sside-%d", h.prefix, step)] = h.line(h.main, 1+h.rnd.IntN(4))
		default:
			h.main = h.line(h.main, 1+h.rnd.IntN(3))
		}
	}
	h.refs[h.prefix+"main"] = h.main
}

// merged forks a branch off main, adds commits to both and merges it.
func (h *history) merged() {
	side := h.line(h.main, 1+h.rnd.IntN(4))
	h.main = h.line(h.main, 1+h.rnd.IntN(2))
	h.main = h.commit([]int{h.main, side}, h.edits(), h.tick())
}

// crissCross makes two branches that merge each other, so they have two
// best common ancestors, and keeps both as refs.
func (h *history) crissCross(step int) {
	a := h.line(h.main, 2)
	b := h.line(h.main, 2)
	a2 := h.commit([]int{a, b}, h.edits(), h.tick())
	b2 := h.commit([]int{b, a}, h.edits(), h.tick())
	h.refs[fmt.Sprintf("%scross-a-%d", h.prefix, step)] = h.line(a2, 2)
	h.refs[fmt.Sprintf("%scross-b-%d", h.prefix, step)] = h.line(b2, 1)
	h.main = h.commit([]int{h.main, a2}, nil, h.tick())
}

// octopus merges three side branches into main in one commit.
func (h *history) octopus() {
	parents := []int{h.main}
	for i := 0; i < 3; i++ {
		parents = append(parents, h.line(h.main, 2))
	}
	h.main = h.commit(parents, h.edits(), h.tick())
}

// bulk changes more than 512 files in one commit (a "too large" filter).
func (h *history) bulk() {
	e := map[string]string{}
	for i := 0; i < 600; i++ {
		e[fmt.Sprintf("bulk/part-%d/file-%d.txt", i%7, i)] = fmt.Sprintf("bulk %d\n", i)
	}
	h.main = h.commit([]int{h.main}, e, h.tick())
}

// future dates one commit in the year 2100 and its child in 2001, so the
// child's corrected commit date offset overflows 31 bits.
func (h *history) future() {
	h.main = h.commit([]int{h.main}, h.edits(), 4102444800)
	h.main = h.commit([]int{h.main}, h.edits(), 1000000000)
}

// stream returns the fast-import input, ending with the refs.
func (h *history) stream() string {
	var b strings.Builder
	b.WriteString(h.b.String())
	for name, mark := range h.refs {
		fmt.Fprintf(&b, "reset refs/heads/%s\nfrom :%d\n\n", name, mark)
	}
	return b.String()
}

// importHistory feeds the commits h gathered since the last import into
// the repository at dir; marks persist between imports.
func importHistory(t testing.TB, dir string, h *history) {
	t.Helper()
	marks := filepath.Join(dir, ".git", "test-marks")
	gitIn(t, dir, h.stream(), "fast-import", "--quiet", "--date-format=raw", "--force",
		"--import-marks-if-exists="+marks, "--export-marks="+marks)
	h.b.Reset()
}
