package hooks

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// program returns what the shims run when no program was named: this program's absolute
// path, or "" (skillgit looked up on PATH when the hook runs) when this program is a
// throwaway build of `go run` or `go test` that the go command deletes or replaces.
func program(getenv func(string) string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if transient(self, buildDirs(getenv)) {
		return "", nil
	}
	return filepath.Abs(self)
}

// buildDirs lists the folders the go command puts throwaway programs in: the temporary
// folder (the system's too, when TMPDIR points elsewhere), GOTMPDIR and the build cache.
func buildDirs(getenv func(string) string) []string {
	dirs := []string{os.TempDir(), getenv("TMPDIR"), getenv("GOTMPDIR"), getenv("GOCACHE")}
	if runtime.GOOS != "windows" {
		dirs = append(dirs, "/tmp", "/var/tmp")
	}
	if cache, err := os.UserCacheDir(); err == nil {
		dirs = append(dirs, filepath.Join(cache, "go-build"))
	}
	return dirs
}

// transient reports whether the program at exe is a throwaway build: it lies under one of
// dirs (compared as given and with symbolic links resolved), or in a go-build folder.
func transient(exe string, dirs []string) bool {
	exe = filepath.Clean(exe)
	for _, elem := range strings.Split(filepath.ToSlash(exe), "/") {
		if isBuildFolder(elem) {
			return true
		}
	}
	for _, dir := range dirs {
		if dir != "" && (within(exe, dir) || within(resolved(exe), resolved(dir))) {
			return true
		}
	}
	return false
}

// isBuildFolder reports whether a path element names a folder of the go command's builds:
// go-build, or go-build followed by digits as in a temporary work folder.
func isBuildFolder(elem string) bool {
	rest, ok := strings.CutPrefix(elem, "go-build")
	return ok && strings.Trim(rest, "0123456789") == ""
}

// within reports whether path lies inside dir.
func within(path, dir string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), path)
	return err == nil && rel != "." && filepath.IsLocal(rel)
}

// resolved is path with its symbolic links resolved, or path itself when that fails.
func resolved(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}
