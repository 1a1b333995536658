package lifecycle

import "github.com/skillgit/skillgit/gitstore"

// SkillFolder exposes skillFolder to the benchmarks of lifecycle_test.
func (r *Repo) SkillFolder(root gitstore.Hash, name string) (string, error) {
	return r.skillFolder(root, name, "bench")
}
