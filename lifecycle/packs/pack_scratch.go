package packs

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/internal/procowner"
)

// The folder a pack is fetched into: a bare repository in the temporary folder, named
// scratchPrefix*scratchSuffix, with an owner record naming the process that made it.
const (
	scratchPrefix = "skillgit-pack-"
	scratchSuffix = ".git"
	scratchOwner  = "skillgit-owner"
)

// sweepOnce sweeps the temporary folder once per process, however many packs it fetches.
var sweepOnce sync.Once

// scratchRepo makes the bare repository a pack is fetched into, in a temporary folder that a
// signal removes too, and returns the function that closes and removes it. The first call
// removes the folders of processes that were killed before they could remove their own.
func scratchRepo() (*gitstore.Repo, func(), error) {
	sweepOnce.Do(func() { sweepScratch(os.TempDir()) })
	dir, untrack, err := interrupt.MkdirTemp("", scratchPrefix+"*"+scratchSuffix)
	if err != nil {
		return nil, nil, fmt.Errorf("making a folder to fetch into: %w", err)
	}
	removeDir := func() {
		os.RemoveAll(dir)
		untrack()
	}
	g, err := gitstore.Init(dir, gitstore.InitOptions{Bare: true})
	if err != nil {
		removeDir()
		return nil, nil, fmt.Errorf("making a repository to fetch into: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, scratchOwner), procowner.Self().Marshal(), 0o600); err != nil {
		g.Close()
		removeDir()
		return nil, nil, fmt.Errorf("making a repository to fetch into: %w", err)
	}
	return g, func() {
		g.Close()
		removeDir()
	}, nil
}

// sweepScratch removes, from the temporary folder tmp, the fetch folders whose owner record
// names a process that is certainly gone. A folder that is not a real folder of this user, or
// has no readable record, is left alone: the temporary folder is shared.
func sweepScratch(tmp string) {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, scratchPrefix) || !strings.HasSuffix(name, scratchSuffix) {
			continue
		}
		dir := filepath.Join(tmp, name)
		if ownScratch(dir) {
			os.RemoveAll(dir)
		}
	}
}

// ownScratch reports whether dir is a folder (not a link) of this user whose owner record
// names a process that is gone.
func ownScratch(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || !mine(fi) {
		return false
	}
	record := filepath.Join(dir, scratchOwner)
	if fi, err := os.Lstat(record); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(record)
	if err != nil {
		return false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return false
	}
	o, _, err := procowner.Parse(data)
	return err == nil && o.Gone()
}
