package published

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// keepCatalogs is how many cached listings a repository keeps. Each is as large as the
// listing (megabytes at 10,000 skills) and a new one comes with every publish; the listings
// in use are the channels' current ones and the latest, from which the next is derived.
const keepCatalogs = 8

// prune removes the cached listings beyond the keepCatalogs written last, of this version
// and of earlier ones; keep is never removed. Failing to remove one never fails the command.
func (c catalogCache) prune(keep string) {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	type listing struct {
		name string
		when time.Time
	}
	var all []listing
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, "catalog-v") || !strings.HasSuffix(name, ".bin") || name == keep {
			continue
		}
		if info, err := e.Info(); err == nil {
			all = append(all, listing{name, info.ModTime()})
		}
	}
	if len(all) < keepCatalogs {
		return
	}
	slices.SortFunc(all, func(a, b listing) int { return b.when.Compare(a.when) })
	for _, l := range all[keepCatalogs-1:] {
		_ = os.Remove(filepath.Join(c.dir, l.name))
	}
}
