package ledger

import (
	"sync"

	"github.com/skillgit/skillgit/gitstore"
)

// Ledger reads the steps of a repository's channels. It remembers each step it derived: a
// step is a function of its commit, which names its whole history. It is safe for use by
// several goroutines.
type Ledger struct {
	s         Store
	skillsDir string
	mu        sync.Mutex // guards steps and chains
	steps     map[gitstore.Hash]*Step
	chains    map[gitstore.Hash]*Chain
}

// New returns a ledger over s for a repository whose skills live under skillsDir.
func New(s Store, skillsDir string) *Ledger {
	return &Ledger{s: s, skillsDir: skillsDir, steps: map[gitstore.Hash]*Step{}, chains: map[gitstore.Hash]*Chain{}}
}

// Store is what the ledger reads.
func (l *Ledger) Store() Store { return l.s }

// SkillsDir is the folder of the skills, as the ledger was made for.
func (l *Ledger) SkillsDir() string { return l.skillsDir }

// chainAt reads, once, the candidate whose tip is h.
func (l *Ledger) chainAt(h gitstore.Hash) (*Chain, error) {
	l.mu.Lock()
	ch, ok := l.chains[h]
	l.mu.Unlock()
	if ok {
		return ch, nil
	}
	ch, err := chainAt(l.s, h)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.chains[h] = ch
	l.mu.Unlock()
	return ch, nil
}
