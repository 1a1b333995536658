//go:build !linux

package published

import (
	"io/fs"

	"github.com/skillgit/skillgit/catalog"
)

// stampAll stamps the SKILL.md of every entry of skills folder dir, whose files fsys holds,
// that is a skill folder Discover would load on its own: a folder, not hidden, with a SKILL.md
// it can Lstat. Other entries are nil.
func stampAll(dir string, fsys fs.FS, entries []fs.DirEntry) []*cachedSkill {
	out := make([]*cachedSkill, len(entries))
	parallel(len(entries), func(i int) {
		e := entries[i]
		if !skillCandidate(e) {
			return
		}
		info, err := fs.Lstat(fsys, e.Name()+"/"+catalog.FileName)
		if err == nil {
			out[i] = &cachedSkill{Dir: e.Name(), entry: e, Stamp: fileStamp{
				Size: info.Size(), ModTime: info.ModTime().UnixNano(), Mode: uint32(info.Mode()),
			}}
		}
	})
	return out
}
