package odb

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fixtureRoot holds the repositories the tests of this package make;
// TestMain removes it.
var fixtureRoot string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "odb-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixtureRoot = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var (
	genOnce sync.Once
	genDir  string
)

// generatedRepo returns a repository of some five thousand objects,
// made with git fast-import and packed by git gc, then repacked with
// chains of deltas up to a thousand deep. Tests must not change it.
func generatedRepo(tb testing.TB) string {
	genOnce.Do(func() {
		dir := filepath.Join(fixtureRoot, "generated")
		git(tb, fixtureRoot, "init", "-q", "-b", "main", dir)
		fastImport(tb, dir, history(500, 60, 1, true))
		git(tb, dir, "gc", "-q")
		git(tb, dir, "repack", "-adf", "-q", "--window=20", "--depth=1000")
		genDir = dir
	})
	if genDir == "" {
		tb.Fatal("the generated repository could not be made")
	}
	return genDir
}

// copyRepo copies the repository at src to a new folder under the
// fixture root and returns it.
func copyRepo(tb testing.TB, src, name string) string {
	tb.Helper()
	dst := filepath.Join(tb.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		tb.Fatal(err)
	}
	return dst
}

// fastImport feeds stream to git fast-import in dir.
func fastImport(tb testing.TB, dir string, stream []byte) {
	tb.Helper()
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stream)
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("git fast-import: %v\n%s", err, out)
	}
}

// history returns a fast-import stream of commits commits over files
// files: each commit changes a few files, appends a line to chain.txt
// and edits one of its lines (so that each version is closest to the
// next and its versions make a long delta chain) and now and then deletes a
// file or tags the commit. With big, the first commit also adds a blob
// of 200 KiB of random bytes.
func history(commits, files int, seed int64, big bool) []byte {
	rng := rand.New(rand.NewSource(seed))
	content := make([][]string, files)
	for i := range content {
		content[i] = randomLines(rng, 20+rng.Intn(80))
	}
	var b bytes.Buffer
	var chain []string
	mark := 0
	blob := func(data []byte) int {
		mark++
		fmt.Fprintf(&b, "blob\nmark :%d\ndata %d\n%s\n", mark, len(data), data)
		return mark
	}
	random := make([]byte, 200<<10)
	rng.Read(random)
	prev := 0
	for c := 0; c < commits; c++ {
		var ops []string
		if c == 0 && big {
			ops = append(ops, fmt.Sprintf("M 100644 :%d bin/random.dat", blob(random)))
		}
		if len(chain) > 0 {
			chain[rng.Intn(len(chain))] = fmt.Sprintf("edited in %d: %x", c, rng.Int63())
		}
		chain = append(chain, fmt.Sprintf("line %d of the chain %x", c, rng.Int63()))
		ops = append(ops, fmt.Sprintf("M 100644 :%d chain.txt", blob([]byte(strings.Join(chain, "\n")))))
		changes := 4
		if c == 0 {
			changes = files
		}
		for k := 0; k < changes; k++ {
			f := k
			if c > 0 {
				f = rng.Intn(files)
				mutate(rng, &content[f])
			}
			mode := "100644"
			if f%7 == 0 {
				mode = "100755"
			}
			ops = append(ops, fmt.Sprintf("M %s :%d %s", mode, blob([]byte(strings.Join(content[f], "\n"))), filePath(f)))
		}
		if c%37 == 36 {
			ops = append(ops, "D "+filePath(rng.Intn(files)))
		}
		mark++
		fmt.Fprintf(&b, "commit refs/heads/main\nmark :%d\n", mark)
		fmt.Fprintf(&b, "author A <a@example.com> %d +0000\ncommitter A <a@example.com> %d +0000\n", 1700000000+c*60, 1700000000+c*60)
		msg := fmt.Sprintf("change %d\n\nTouches %d files.\n", c, len(ops))
		fmt.Fprintf(&b, "data %d\n%s", len(msg), msg)
		if prev != 0 {
			fmt.Fprintf(&b, "from :%d\n", prev)
		}
		b.WriteString(strings.Join(ops, "\n") + "\n\n")
		prev = mark
		if c%100 == 99 {
			tagMsg := fmt.Sprintf("release %d\n", c/100)
			fmt.Fprintf(&b, "tag v%d\nfrom :%d\ntagger A <a@example.com> %d +0000\ndata %d\n%s\n", c/100, prev, 1700000000+c*60, len(tagMsg), tagMsg)
		}
	}
	return b.Bytes()
}

// filePath names file f of the generated history.
func filePath(f int) string {
	return fmt.Sprintf("d%d/e%d/file%d.txt", f%5, f%3, f)
}

// randomLines returns n lines of words.
func randomLines(rng *rand.Rand, n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("%x %d words here %x", rng.Int63(), rng.Intn(1000), rng.Int31())
	}
	return lines
}

// mutate changes, inserts or removes a line of a file.
func mutate(rng *rand.Rand, lines *[]string) {
	l := *lines
	i := rng.Intn(len(l))
	switch rng.Intn(3) {
	case 0:
		l[i] = fmt.Sprintf("changed %x", rng.Int63())
	case 1:
		l = append(l[:i], append([]string{fmt.Sprintf("new %x", rng.Int63())}, l[i:]...)...)
	default:
		if len(l) > 5 {
			l = append(l[:i], l[i+1:]...)
		}
	}
	*lines = l
}
