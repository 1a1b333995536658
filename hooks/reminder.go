package hooks

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/atomicfile"
	"github.com/skillgit/skillgit/lifecycle"
)

// quietFile, in skillgit's folder of the common git directory, says not to remind the
// repository of missing hooks: it was reminded once, or its hooks were declined. It holds
// why, for a person who finds it. A clone starts without it, as it starts without hooks.
var quietFile = filepath.Join("skillgit", "no-hooks-reminder")

// Reminder says that the hooks that audit `git commit` and `git push` are missing.
type Reminder struct {
	// Dir is the folder git runs the repository's hooks from.
	Dir string
	// Missing are the hooks skillgit installs that are not there, or not skillgit's.
	Missing []string
}

// Remind returns, once per repository, the hooks skillgit installs that a skill repository
// with a working tree lacks, as a clone does: git does not clone hooks, so until they are
// installed a plain `git commit` or `git push` there is not audited. It records that it
// reminded, and returns nil in a bare repository, outside a skill repository, when the
// hooks are installed (chained ones too), and once the repository was reminded or declined
// them (see Decline). When the record cannot be written, the reminder is still returned and
// comes again next time.
func Remind(o Options) (*Reminder, error) {
	r, err := gitstore.Open(o.Dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	quiet := filepath.Join(r.CommonDir(), quietFile)
	if r.Bare() || exists(quiet) {
		return nil, nil
	}
	f, err := locate(r, o.getenv())
	if err != nil {
		return nil, err
	}
	rem := &Reminder{Dir: f.Dir}
	for _, name := range namesFor(r) {
		h, err := inspect(f.Dir, name)
		if err != nil {
			return nil, err
		}
		if h.State != StateInstalled && h.State != StateChained {
			rem.Missing = append(rem.Missing, name)
		}
	}
	if len(rem.Missing) == 0 || !skillRepository(o.Dir) {
		return nil, nil
	}
	_ = decline(r.CommonDir(), "reminded once that the hooks are missing")
	return rem, nil
}

// Decline records that the repository goes without skillgit's hooks, for the reason why,
// so that Remind says nothing there. Install undoes it.
func Decline(o Options, why string) error {
	r, err := gitstore.Open(o.Dir)
	if err != nil {
		return err
	}
	defer r.Close()
	return decline(r.CommonDir(), why)
}

// decline writes why to the quiet file of the repository whose common git directory is
// commonDir.
func decline(commonDir, why string) error {
	return atomicfile.Write(filepath.Join(commonDir, quietFile), []byte(why+"\n"), atomicfile.Options{Perm: 0o644})
}

// unquiet removes what Decline or Remind recorded in the repository whose common git
// directory is commonDir, so that hooks that go missing later are reminded of again.
func unquiet(commonDir string) error {
	if err := os.Remove(filepath.Join(commonDir, quietFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// skillRepository reports whether dir is in a repository that skillgit has initialized.
func skillRepository(dir string) bool {
	r, err := lifecycle.Open(dir)
	if err != nil {
		return false
	}
	r.Close()
	return true
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
