package skilltree

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skillgit/skillgit/catalog"
	"github.com/skillgit/skillgit/gitstore"
)

// Extract writes the skill folder at folder of root tree tree into dir on disk, and when
// rename is not empty names the copy's skill rename in its SKILL.md. label names the source
// in errors, such as a candidate's id.
func Extract(g *gitstore.Repo, tree gitstore.Hash, folder, label, rename, dir string) error {
	sub, err := fs.Sub(g.Objects().TreeFS(tree), folder)
	if err != nil {
		return err
	}
	if err := os.CopyFS(dir, sub); err != nil {
		return fmt.Errorf("%s: cannot copy the skill folder %s: %w", label, folder, err)
	}
	if rename == "" {
		return nil
	}
	file := filepath.Join(dir, catalog.FileName)
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	renamed, err := catalog.RenameSkill(data, rename)
	if err != nil {
		return fmt.Errorf("%s: cannot name its skill %s: %s", label, rename, err)
	}
	return os.WriteFile(file, renamed, 0o644)
}
