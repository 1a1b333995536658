package ledger

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
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
const cacheVersion = "v2"

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

// Save adds the steps derived since the cache was read to its file; failing to write it
// never fails the caller. The file only grows by appending, so a command that derived one
// step writes one line, not the whole history's.
func (l *Ledger) Save() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cacheFile == "" || len(l.derived) == 0 || l.readOnly {
		return
	}
	var b strings.Builder
	for h, rec := range l.derived {
		line := encodeRecord(h, rec)
		l.cached.add(h.String(), line)
		b.WriteString("\n" + line)
	}
	clear(l.derived)
	_ = appendCache(l.cacheFile, b.String()+"\n", l.cached)
}

// appendCache appends lines to the cache file. Each starts on a line of its own, so a line
// torn by a crash spoils only itself, which its checksum then refuses. A file that would grow
// past maxCache is written anew from cached, one line per step.
func appendCache(file, lines string, cached *cacheLines) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	if info, err := os.Stat(file); err == nil && info.Size()+int64(len(lines)) > maxCache {
		all := cached.all()
		sort.Strings(all)
		return atomicfile.Write(file, []byte(strings.Join(all, "\n")+"\n"), atomicfile.Options{})
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(lines)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// remember records a step derived now for the cache.
func (l *Ledger) remember(st *Step) {
	if l.cacheFile == "" {
		return
	}
	l.derived[st.Commit.Hash] = stepRecord{kind: st.Kind, via: st.Via, unverified: st.Unverified, undoes: st.Undoes, changes: st.Changes}
}

// recalled is the step of commit c from the cache, or nil. A line is decoded when its step
// is first wanted, so a command that needs a few steps of a long history reads only those;
// a line that does not decode is dropped, and the step is derived again.
func (l *Ledger) recalled(c Commit) *Step {
	rec, ok := l.derived[c.Hash]
	if !ok {
		key := c.Hash.String()
		line, found := l.cached.get(key)
		if !found {
			return nil
		}
		h, r, err := decodeRecord(line)
		if err != nil || h != c.Hash {
			return nil
		}
		rec = r
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
	return seal(strings.Join(fields, " "))
}

// seal ends a cache line with the checksum of what comes before it.
func seal(line string) string { return line + " " + checksum(line) }

// unseal returns the line without its checksum; ok is false when the checksum does not match,
// as for a line torn by a crash.
func unseal(line string) (string, bool) {
	i := strings.LastIndexByte(line, ' ')
	if i < 0 {
		return "", false
	}
	return line[:i], line[i+1:] == checksum(line[:i])
}

// checksum is the CRC-32 of s in hex.
func checksum(s string) string { return fmt.Sprintf("%08x", crc32.ChecksumIEEE([]byte(s))) }

// hexLen is the length of a commit id in hex, which starts each line of the cache.
const hexLen = 40

// decodeRecord reads one line of the cache; a line that does not read whole is left out.
func decodeRecord(line string) (gitstore.Hash, stepRecord, error) {
	var rec stepRecord
	body, ok := unseal(line)
	if !ok {
		return gitstore.ZeroHash, rec, errors.New("checksum")
	}
	r := &fieldReader{rest: body}
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
