package targetdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/skillgit/skillgit/internal/filenames"
	"github.com/skillgit/skillgit/internal/interrupt"
	"github.com/skillgit/skillgit/internal/procowner"
)

// ErrBusy reports a target folder whose mutex another sync held for longer than
// Options.MutexWait.
var ErrBusy = errors.New("another sync is writing this folder")

// DefaultMutexWait is how long a sync waits for another sync of the same folder to finish.
const DefaultMutexWait = 5 * time.Second

const (
	// mutexPoll is how often a waiting sync looks at the mutex again.
	mutexPoll = 20 * time.Millisecond
	// staleAge is how old a break file must be before it is taken for one a dead process
	// left behind.
	staleAge = 10 * time.Second
	// incompleteAge is how old a mutex without its owner's record must be before it is taken
	// for one whose owner died between creating it and writing the record, microseconds
	// apart: well under DefaultMutexWait, so a sync killed in between blocks no other.
	incompleteAge = 2 * time.Second
)

// folderMutex is the held mutex of one target folder: the file filenames.FolderMutex, beside the
// manifest, from the moment a sync reads the manifest until it is done, so that one sync at a
// time writes the folder. Its first line holds its owner's process id and a nonce, as it
// always has; the lines after it the owner's record (start time, boot and host), so that a
// mutex left by a process that died is taken over even when a new process got the same id.
type folderMutex struct {
	root    *os.Root
	record  string
	untrack func()
}

// mutexHolder is what the mutex file says about its owner.
type mutexHolder struct {
	record string           // the whole content, to tell this mutex from a later one
	pid    int              // 0 while the record is not yet complete
	owner  *procowner.Owner // nil in a record of the older "PID NONCE" form
	mtime  time.Time        // when the mutex was made
}

// stale reports a mutex whose owner is gone: its process is dead or is another process with
// the same id, or it never finished its record long ago.
func (h mutexHolder) stale() bool {
	switch {
	case h.pid == 0:
		return time.Since(h.mtime) > incompleteAge
	case h.owner != nil:
		return h.owner.Gone()
	}
	return !processAlive(h.pid)
}

// mutexRecord is what this process writes in the mutex file: "PID NONCE", the line that older
// versions of skillgit read, the nonce telling this mutex from a later one of the same
// process; then its owner record.
func mutexRecord() string {
	me := procowner.Self()
	return strconv.Itoa(me.PID) + " " + randSuffix() + "\n" + string(me.Marshal())
}

// trackIn registers the file name in the folder of root for removal if the process stops.
func trackIn(root *os.Root, name string) func() {
	return interrupt.Track(filepath.Join(root.Name(), name))
}

// takeMutex takes the mutex of folder dir, opened as root. While another live process holds
// it, takeMutex waits up to wait, then fails with ErrBusy; a mutex left by a dead
// process is cleared and taken.
func takeMutex(root *os.Root, dir string, wait time.Duration) (*folderMutex, error) {
	record := mutexRecord()
	deadline := time.Now().Add(wait)
	for {
		untrack, h, err := tryMutex(root, record)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, filenames.FolderMutex), err)
		case untrack != nil:
			return &folderMutex{root: root, record: record, untrack: untrack}, nil
		case h != nil && h.stale():
			cleared, err := breakStale(root, h.record)
			if err != nil {
				return nil, fmt.Errorf("%s: clearing the mutex of a dead sync: %w", filepath.Join(dir, filenames.FolderMutex), err)
			}
			if cleared {
				continue
			}
		case h != nil && time.Now().After(deadline):
			return nil, busyError(dir, *h)
		}
		time.Sleep(mutexPoll)
	}
}

// tryMutex creates the mutex file holding record, unless it exists, registers it for removal
// if the process stops, and returns the function that forgets it. When the file exists, it
// returns what the file says of its owner; nil when the file vanished in between.
func tryMutex(root *os.Root, record string) (func(), *mutexHolder, error) {
	// A signal waits until the mutex made here is registered, so that it never leaves one
	// behind; a mutex it finds is another process's and is never registered.
	done, err := interrupt.Critical()
	if err != nil {
		return nil, nil, err
	}
	defer done()
	f, err := root.OpenFile(filenames.FolderMutex, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		h, err := readHolder(root)
		return nil, h, err
	}
	if err != nil {
		return nil, nil, err
	}
	untrack := trackIn(root, filenames.FolderMutex)
	_, err = f.WriteString(record)
	if err = errors.Join(err, f.Close()); err != nil {
		_ = root.Remove(filenames.FolderMutex)
		untrack()
		return nil, nil, err
	}
	return untrack, nil, nil
}

// readHolder reads the mutex file; nil when it is gone.
func readHolder(root *os.Root) (*mutexHolder, error) {
	info, err := root.Lstat(filenames.FolderMutex)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	data, err := root.ReadFile(filenames.FolderMutex)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	h := &mutexHolder{record: string(data), mtime: info.ModTime()}
	h.pid, h.owner = parseRecord(h.record)
	return h, nil
}

// parseRecord returns the process id of a complete mutex record, and its owner when the record
// has one; a record of the older form, the single line "PID NONCE\n", has only the id. It
// returns 0 for a record still being written or one that is not skillgit's.
func parseRecord(record string) (int, *procowner.Owner) {
	if !strings.HasSuffix(record, "\n") {
		return 0, nil
	}
	first, rest, _ := strings.Cut(record, "\n")
	pid, _, _ := strings.Cut(first, " ")
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return 0, nil
	}
	if rest == "" {
		return n, nil
	}
	o, _, err := procowner.Parse([]byte(rest))
	// The host line ends the owner record; without it the record is still being written.
	if err != nil || o.PID != n || !strings.Contains("\n"+rest, "\nhost ") {
		return 0, nil
	}
	return n, &o
}

// breakStale removes the mutex file when it still holds the record of the dead owner seen,
// and reports whether it did. The break file makes sure only one process does so at a time,
// so that no process removes a mutex another has just taken over. A break file is held for
// an instant; one older than staleAge was left by a process that died holding it.
func breakStale(root *os.Root, seen string) (bool, error) {
	done, err := interrupt.Critical()
	if err != nil {
		return false, err
	}
	f, err := root.OpenFile(filenames.MutexBreak, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		done()
		if errors.Is(err, fs.ErrExist) {
			if info, err := root.Lstat(filenames.MutexBreak); err == nil && time.Since(info.ModTime()) > staleAge {
				_ = root.Remove(filenames.MutexBreak)
			}
			return false, nil
		}
		return false, err
	}
	untrack := trackIn(root, filenames.MutexBreak)
	done()
	defer untrack()
	defer root.Remove(filenames.MutexBreak)
	if err := f.Close(); err != nil {
		return false, err
	}
	now, err := root.ReadFile(filenames.FolderMutex)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil || string(now) != seen {
		return false, err
	}
	return true, root.Remove(filenames.FolderMutex)
}

// release removes the mutex file, if it is still this mutex's, and forgets it.
func (l *folderMutex) release() error {
	if l == nil {
		return nil
	}
	defer l.untrack()
	data, err := l.root.ReadFile(filenames.FolderMutex)
	if err != nil || string(data) != l.record {
		return nil
	}
	return l.root.Remove(filenames.FolderMutex)
}

// busyError says who holds the mutex of dir and how to clear it when nobody does.
func busyError(dir string, h mutexHolder) error {
	owner := "a sync that is starting"
	switch {
	case h.owner != nil:
		owner = fmt.Sprintf("a sync (%s)", h.owner)
	case h.pid > 0:
		owner = fmt.Sprintf("a sync (process %d)", h.pid)
	}
	return fmt.Errorf("%s: %w: %s holds %s; wait for it to finish and try again, or, if no skillgit sync is running, remove that file",
		dir, ErrBusy, owner, filepath.Join(dir, filenames.FolderMutex))
}
