package commitgraph

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestReleasedGraphStillAnswers reads every commit of a graph, releases its pages, and checks
// that the graph answers as before and, where the system tells, that none of its files'
// pages stay resident until it reads them again.
func TestReleasedGraphStillAnswers(t *testing.T) {
	for _, kind := range []string{"plain", "split"} {
		t.Run(kind, func(t *testing.T) {
			g := openFixture(t, kind)
			want := gitLog(t, fixture(t, kind))
			levels, dates := expectedGenerations(want)
			for id, c := range want {
				checkCommit(t, g, c, levels[id], dates[id])
			}
			files := graphFiles(t, kind)
			if before := residentKB(t, files); runtime.GOOS == "linux" && before == 0 {
				t.Fatalf("no page of %v is resident after reading every commit", files)
			}
			g.Release()
			if after := residentKB(t, files); after != 0 {
				t.Errorf("%d KB of %v stay resident after Release", after, files)
			}
			for id, c := range want {
				checkCommit(t, g, c, levels[id], dates[id])
			}
		})
	}
}

// graphFiles lists the graph files of fixture kind.
func graphFiles(t *testing.T, kind string) []string {
	t.Helper()
	info := filepath.Join(fixture(t, kind), ".git", "objects", "info")
	files, err := filepath.Glob(filepath.Join(info, "commit-graphs", "*.graph"))
	if err != nil {
		t.Fatal(err)
	}
	if single := filepath.Join(info, "commit-graph"); fileThere(single) {
		files = append(files, single)
	}
	if len(files) == 0 {
		t.Fatalf("fixture %s has no graph file", kind)
	}
	return files
}

func fileThere(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// residentKB sums the resident kilobytes this process maps of files, as /proc/self/smaps
// tells; 0 where there is no such file.
func residentKB(t *testing.T, files []string) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0
	}
	defer f.Close()
	want := map[string]bool{}
	for _, p := range files {
		if abs, err := filepath.EvalSymlinks(p); err == nil {
			want[abs] = true
		}
	}
	total, in := 0, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) >= 5 && strings.Contains(fields[0], "-"):
			in = len(fields) == 6 && want[fields[5]]
		case in && len(fields) == 3 && fields[0] == "Rss:":
			kb, err := strconv.Atoi(fields[1])
			if err != nil {
				t.Fatal(err)
			}
			total += kb
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return total
}
