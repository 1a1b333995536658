package ledger

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillgit/skillgit/gitstore"
	"github.com/skillgit/skillgit/internal/atomicfile"
)

// cacheVersion names the rules the cached steps were derived under: a change to what the
// ledger verifies changes it, and the steps are derived again.
const cacheVersion = "v1"

// maxCache bounds the cache file read back; a larger one is ignored.
const maxCache = 64 << 20

// stepRecord is what the cache keeps of a step: all it derived, none of what it read.
type stepRecord struct {
	kind       Kind
	via        string
	unverified string
	undoes     gitstore.Hash
	changes    []FolderChange
}

// UseCache makes the ledger keep the steps it derives in a file in folder dir, read back
// by the next ledger over the same skills folder: a step is a function of its commit, which
// never changes, so a long history is verified once. Save writes what was learned, unless
// write is false: then the file is only read.
func (l *Ledger) UseCache(dir string, write bool) {
	l.readOnly = !write
	sum := sha1.Sum([]byte(l.skillsDir))
	l.cacheFile = filepath.Join(dir, "ledger-"+cacheVersion+"-"+hex.EncodeToString(sum[:4])+".txt")
	l.cached = readCache(l.cacheFile)
}

// Save writes the steps derived since the cache was read; failing to write it never fails
// the caller.
func (l *Ledger) Save() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cacheFile == "" || !l.learned || l.readOnly {
		return
	}
	lines := make([]string, 0, len(l.cached))
	for h, rec := range l.cached {
		lines = append(lines, encodeRecord(h, rec))
	}
	sort.Strings(lines)
	if err := os.MkdirAll(filepath.Dir(l.cacheFile), 0o755); err == nil {
		_ = atomicfile.Write(l.cacheFile, []byte(strings.Join(lines, "\n")+"\n"), atomicfile.Options{})
	}
	l.learned = false
}

// remember records a step derived now for the cache.
func (l *Ledger) remember(st *Step) {
	if l.cacheFile == "" {
		return
	}
	l.cached[st.Commit.Hash] = stepRecord{kind: st.Kind, via: st.Via, unverified: st.Unverified, undoes: st.Undoes, changes: st.Changes}
	l.learned = true
}

// recalled is the step of commit c from the cache, or nil.
func (l *Ledger) recalled(c Commit) *Step {
	rec, ok := l.cached[c.Hash]
	if !ok {
		return nil
	}
	return &Step{Commit: c, Kind: rec.kind, Claim: c.Action(), Via: rec.via, Unverified: rec.unverified, Undoes: rec.undoes, Changes: rec.changes}
}

// encodeRecord writes one line: the commit, the kind, how, the publish undone, why it is no
// publish or rollback, and each folder change as its path and both trees.
func encodeRecord(h gitstore.Hash, rec stepRecord) string {
	undoes := "-"
	if !rec.undoes.IsZero() {
		undoes = rec.undoes.String()
	}
	fields := []string{h.String(), string(rec.kind), strconv.Quote(rec.via), undoes, strconv.Quote(rec.unverified), strconv.Itoa(len(rec.changes))}
	for _, f := range rec.changes {
		fields = append(fields, strconv.Quote(f.Path), f.Base.String(), f.Head.String())
	}
	return strings.Join(fields, " ")
}

func readCache(file string) map[gitstore.Hash]stepRecord {
	out := map[gitstore.Hash]stepRecord{}
	data, err := os.ReadFile(file)
	if err != nil || len(data) > maxCache {
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if h, rec, err := decodeRecord(sc.Text()); err == nil {
			out[h] = rec
		}
	}
	return out
}

// decodeRecord reads one line of the cache; a line that does not read whole is left out.
func decodeRecord(line string) (gitstore.Hash, stepRecord, error) {
	var rec stepRecord
	r := &fieldReader{rest: line}
	h, err := r.hash()
	if err != nil {
		return h, rec, err
	}
	rec.kind = Kind(r.word())
	switch rec.kind {
	case KindInit, KindPublish, KindRollback, KindCommit:
	default:
		return h, rec, fmt.Errorf("kind %q", rec.kind)
	}
	if rec.via, err = r.quoted(); err != nil {
		return h, rec, err
	}
	if u := r.word(); u != "-" {
		if rec.undoes, err = parseHash(u); err != nil {
			return h, rec, err
		}
	}
	if rec.unverified, err = r.quoted(); err != nil {
		return h, rec, err
	}
	n, err := strconv.Atoi(r.word())
	if err != nil || n < 0 || n > 1<<16 {
		return h, rec, fmt.Errorf("change count: %v", err)
	}
	for range n {
		var f FolderChange
		if f.Path, err = r.quoted(); err != nil {
			return h, rec, err
		}
		if f.Base, err = r.hash(); err != nil {
			return h, rec, err
		}
		if f.Head, err = r.hash(); err != nil {
			return h, rec, err
		}
		rec.changes = append(rec.changes, f)
	}
	if r.rest != "" {
		return h, rec, fmt.Errorf("trailing %q", r.rest)
	}
	return h, rec, nil
}

// fieldReader reads the space-separated fields of a cache line.
type fieldReader struct{ rest string }

func (r *fieldReader) word() string {
	w, rest, _ := strings.Cut(r.rest, " ")
	r.rest = rest
	return w
}

func (r *fieldReader) hash() (gitstore.Hash, error) { return parseHash(r.word()) }

func (r *fieldReader) quoted() (string, error) {
	q, err := strconv.QuotedPrefix(r.rest)
	if err != nil {
		return "", err
	}
	r.rest = strings.TrimPrefix(r.rest[len(q):], " ")
	return strconv.Unquote(q)
}

func parseHash(s string) (gitstore.Hash, error) {
	if len(s) != 40 {
		return gitstore.ZeroHash, fmt.Errorf("hash %q", s)
	}
	if _, err := hex.DecodeString(s); err != nil {
		return gitstore.ZeroHash, err
	}
	return plumbing.NewHash(s), nil
}
