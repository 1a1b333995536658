package mcpserver

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"testing/fstest"

	"github.com/skillgit/skillgit/catalog"
)

// maxBaseBytes bounds a skill folder read back from git to build a new version on.
const maxBaseBytes = 32 << 20

// file is one file of a folder built in memory.
type file struct {
	data []byte
	exec bool
}

// folder is a skill folder built in memory: slash paths relative to the folder, to files.
type folder map[string]file

// checkShape refuses a path used both as a file and as a folder.
func (f folder) checkShape() error {
	for p := range f {
		for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
			if _, clash := f[dir]; clash {
				return inputError("files", "%q is a file and also the folder of %q; rename one of them", dir, p)
			}
		}
	}
	return nil
}

// readFolder copies the files of a skill folder in git into memory.
func readFolder(fsys fs.FS) (folder, error) {
	out := folder{}
	total := 0
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file; a person must revise this skill with `skillgit revise --from DIR`", p)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if total += len(data); total > maxBaseBytes {
			return fmt.Errorf("the skill folder is larger than %s; send its files with files", kib(maxBaseBytes))
		}
		out[p] = file{data: data, exec: info.Mode()&0o111 != 0}
		return err
	})
	return out, err
}

// keepExec marks executable the files that are executable in base.
func (f folder) keepExec(base folder) {
	for p, fl := range f {
		if b, ok := base[p]; ok && b.exec {
			fl.exec = true
			f[p] = fl
		}
	}
}

// mapFS returns the folder as the folder dir of an in-memory file system.
func (f folder) mapFS(dir string) fstest.MapFS {
	m := fstest.MapFS{}
	for p, fl := range f {
		mode := fs.FileMode(0o644)
		if fl.exec {
			mode = 0o755
		}
		m[path.Join(dir, p)] = &fstest.MapFile{Data: fl.data, Mode: mode}
	}
	return m
}

// skillName reads the name from the SKILL.md of a folder an agent sent.
func (f folder) skillName() (string, error) {
	sk, problems := catalog.Parse("skill", f[catalog.FileName].data, catalog.Lenient)
	if sk == nil {
		msgs := make([]string, 0, len(problems))
		for _, p := range problems {
			if !p.Warning {
				msgs = append(msgs, p.Message)
			}
		}
		return "", inputError("files", "%s cannot be loaded: %s", catalog.FileName, strings.Join(msgs, "; "))
	}
	if err := catalog.CheckSkillName(sk.Name); err != nil {
		return "", inputError("files", "%s: %v", catalog.FileName, err)
	}
	return sk.Name, nil
}
