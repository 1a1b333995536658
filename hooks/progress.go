package hooks

import (
	"io"

	"github.com/skillgit/skillgit/internal/progress"
)

// ProgressMin is how many skills an audit must have for its progress to be shown: fewer are
// audited too fast to need it.
const ProgressMin = 10

// Progress writes how far an audit has got, "auditing skills: 7/18", as package progress
// writes it: so it reads the same on a terminal, after "remote:" in the output of `git push`
// (which relays a server hook's) and in that of `skillgit push`. It shows from the first
// skill on; an audit of fewer than ProgressMin skills writes nothing.
type Progress struct{ *progress.Counter }

// NewProgress is a Progress writing to w, each line starting with prefix. Its Update is an
// auditrun.Progress.
func NewProgress(w io.Writer, prefix string) *Progress {
	return &Progress{progress.New(w, progress.Options{Prefix: prefix, Label: "auditing skills", Min: ProgressMin})}
}
