package doctor

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// openers lists the processes of this host that have file p open, as far as /proc shows
// them; processes whose folders cannot be read are skipped. known is false when /proc
// cannot be read at all.
func openers(p string) (pids []int, known bool) {
	want := map[string]bool{}
	if abs, err := filepath.Abs(p); err == nil {
		want[abs] = true
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		want[real] = true
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	if _, err := os.ReadDir("/proc/self/fd"); err != nil {
		return nil, false
	}
	for _, e := range procs {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if holds(pid, want) {
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)
	return pids, true
}

// holds reports whether process pid has one of the files want open.
func holds(pid int, want map[string]bool) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if target, err := os.Readlink(dir + "/" + fd.Name()); err == nil && want[target] {
			return true
		}
	}
	return false
}

// gitsIn lists the git processes of this host that run in one of dirs or below: a git
// command may hold a lock it has closed, such as git commit's index.lock while the editor
// is open. Processes whose folders cannot be read are skipped.
func gitsIn(dirs []string) []int {
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range procs {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, err := os.ReadFile("/proc/" + e.Name() + "/comm")
		if err != nil || strings.TrimSpace(string(comm)) != "git" {
			continue
		}
		cwd, err := os.Readlink("/proc/" + e.Name() + "/cwd")
		if err == nil && slices.ContainsFunc(dirs, func(d string) bool { return within(cwd, d) }) {
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)
	return pids
}

// within reports whether path is dir or lies below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
