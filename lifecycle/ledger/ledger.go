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
	mu        sync.Mutex // guards steps, chains and the cache
	steps     map[gitstore.Hash]*Step
	chains    map[gitstore.Hash]*Chain
	// loaded holds the chains LoadChain read, by tip and id: a commit names its history, so
	// a chain read once is the chain for as long as the process runs.
	loaded map[chainKey]*Chain
	// parents remembers the first parent of the commits read, the zero hash for a root.
	parents map[gitstore.Hash]gitstore.Hash
	// cacheFile keeps, when set, the steps derived so far, by any ledger: cached holds its
	// lines, each decoded only when its step is wanted, and derived the steps this
	// ledger derived, which Save adds.
	cacheFile string
	cached    *cacheLines
	derived   map[gitstore.Hash]stepRecord
	readOnly  bool
	// walked is the last walk of the publish branch NewStateCtx made.
	walked *stateWalk
}

// New returns a ledger over s for a repository whose skills live under skillsDir.
func New(s Store, skillsDir string) *Ledger {
	return &Ledger{s: newTreeCache(s), skillsDir: skillsDir, steps: map[gitstore.Hash]*Step{}, chains: map[gitstore.Hash]*Chain{},
		loaded:  map[chainKey]*Chain{},
		parents: map[gitstore.Hash]gitstore.Hash{}, cached: &cacheLines{added: map[string]string{}}, derived: map[gitstore.Hash]stepRecord{}}
}

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

// keptSteps bounds the steps, and so the commits, a ledger keeps read: a batch of thousands
// of publishes reads thousands of candidates once each, and keeping them all would cost
// more memory than reading some again.
const keptSteps = 1 << 10

// keptChains bounds the chains a ledger keeps read by LoadChain: a batch of ten thousand
// publishes reads the chain of each candidate once or twice, one after the other.
const keptChains = 1 << 10

// keepBounded puts v in m under k and returns m; a map already holding limit entries is
// replaced by a new one first, its entries to be read again when wanted.
func keepBounded[K comparable, V any](m map[K]V, k K, v V, limit int) map[K]V {
	if len(m) >= limit {
		m = make(map[K]V)
	}
	m[k] = v
	return m
}

// keepStep keeps st, the step of commit h; once keptSteps are kept, the steps and chains
// read so far are forgotten first, to be read again when wanted. The caller holds mu.
func (l *Ledger) keepStep(h gitstore.Hash, st *Step) {
	if len(l.steps) >= keptSteps {
		l.steps, l.chains, l.loaded = map[gitstore.Hash]*Step{}, map[gitstore.Hash]*Chain{}, map[chainKey]*Chain{}
	}
	l.steps[h] = st
}

// chainKey names a chain read back from a tip to the propose commit of an id.
type chainKey struct {
	tip gitstore.Hash
	id  string
}

// loadChain reads, once, candidate id's chain from tip with s, held by ref.
func (l *Ledger) loadChain(s Store, id, ref string, tip gitstore.Hash) (*Chain, error) {
	k := chainKey{tip: tip, id: id}
	l.mu.Lock()
	ch, ok := l.loaded[k]
	l.mu.Unlock()
	if !ok {
		var err error
		if ch, err = LoadChain(s, id, ref, tip); err != nil {
			return nil, err
		}
		l.mu.Lock()
		l.loaded = keepBounded(l.loaded, k, ch, keptChains)
		l.mu.Unlock()
	}
	held := *ch
	held.Ref = ref
	return &held, nil
}

// ChainOf is the candidate a publish step merged; nil for a step that merged none, such as
// init's publish.
func (l *Ledger) ChainOf(st *Step) (*Chain, error) {
	if st.Kind != KindPublish || len(st.Commit.C.ParentHashes) != 2 {
		return nil, nil
	}
	return l.chainAt(st.Commit.C.ParentHashes[1])
}
