package published

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// stampAll stamps the SKILL.md of every entry of skills folder dir that is a skill folder
// Discover would load on its own: a folder, not hidden, with a SKILL.md it can Lstat. Other
// entries are nil. One fstatat a file, relative to the open folder, costs a third of the
// system calls of an Lstat through os.Root. The stamp has the change time and the inode, which
// tell a same-size rewrite that kept its modification time.
func stampAll(dir string, fsys fs.FS, entries []fs.DirEntry) []*cachedSkill {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return make([]*cachedSkill, len(entries))
	}
	defer unix.Close(fd)
	out := make([]*cachedSkill, len(entries))
	parallel(len(entries), func(i int) {
		e := entries[i]
		if !skillCandidate(e) {
			return
		}
		var st unix.Stat_t
		if unix.Fstatat(fd, e.Name()+"/SKILL.md", &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			return
		}
		msec, mnsec := st.Mtim.Unix()
		csec, cnsec := st.Ctim.Unix()
		out[i] = &cachedSkill{Dir: e.Name(), entry: e, Stamp: fileStamp{
			Size: st.Size, ModTime: msec*1e9 + mnsec, ChangeTime: csec*1e9 + cnsec,
			Mode: uint32(st.Mode), Ino: uint64(st.Ino), Dev: uint64(st.Dev),
		}}
	})
	return out
}
