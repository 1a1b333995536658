package targetdir

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillgit/skillgit/internal/filenames"
)

// TestConcurrentSyncsIntoOneFolder starts a second sync of another version into a folder
// while the first is in the middle of writing it, round after round: each must succeed, one
// after the other, and the folder must then hold whole skills that its manifest describes.
func TestConcurrentSyncsIntoOneFolder(t *testing.T) {
	base := t.TempDir()
	var names []string
	for i := range 60 {
		names = append(names, fmt.Sprintf("skill-%03d", i))
	}
	versions := map[string][]Skill{}
	for _, v := range []string{"v1", "v2"} {
		versions[v] = writeSource(t, filepath.Join(base, v), v, names...)
	}
	target := filepath.Join(base, "target")
	run := func(v string, w func(*os.Root) Writer) error {
		p, err := Plan(os.DirFS(filepath.Join(base, v)), versions[v], target, Options{Force: true, Disk: realDisk{wrap: w}})
		if err != nil {
			return err
		}
		return errors.Join(p.Apply(), p.Close())
	}
	for round, pair := range [][2]string{{"v1", "v2"}, {"v1", "v2"}, {"v1", "v2"}} {
		writing := make(chan struct{})
		first := make(chan error, 1)
		go func() { first <- run(pair[0], pausing(writing)) }()
		select {
		case <-writing:
		case err := <-first:
			t.Fatalf("round %d: the first sync wrote no folder: %v", round, err)
		}
		second := run(pair[1], nil)
		if err := errors.Join(<-first, second); err != nil {
			t.Fatalf("round %d: two syncs at once: %v", round, err)
		}
		checkManifestMatches(t, target)
	}
	assertNoLeftovers(t, target)
	if _, err := os.Lstat(filepath.Join(target, filenames.FolderMutex)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the lock outlived both syncs: %v", err)
	}
}

// pausing returns the writer of a sync that, once it has made its first folder, closes
// writing and pauses for a moment, so that another sync starts while it is half done.
func pausing(writing chan struct{}) func(*os.Root) Writer {
	var once sync.Once
	return func(root *os.Root) Writer {
		return pausingWriter{Writer: NewRootWriter(root), pause: func() {
			once.Do(func() {
				close(writing)
				time.Sleep(300 * time.Millisecond)
			})
		}}
	}
}

type pausingWriter struct {
	Writer
	pause func()
}

func (w pausingWriter) Mkdir(name string) error {
	err := w.Writer.Mkdir(name)
	w.pause()
	return err
}

// checkManifestMatches asserts that a plain sync of the version the manifest records for
// each skill finds nothing to change: every folder is what skillgit wrote.
func checkManifestMatches(t *testing.T, target string) {
	t.Helper()
	root, err := os.OpenRoot(target)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	m, err := readManifest(root, target)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Skills) != 60 {
		t.Fatalf("manifest lists %d skills; want 60", len(m.Skills))
	}
	for name, e := range m.Skills {
		got, err := hashInstalled(root, name)
		if err != nil {
			t.Fatal(err)
		}
		if got != e.Written {
			t.Fatalf("%s holds %s but the manifest says skillgit wrote %s (source %s)", name, got, e.Written, e.Source)
		}
	}
}

// TestFolderMutexHeldFailsClearly shows a second sync of a folder waiting while the first holds
// the mutex, then failing with a message that names the mutex and how to clear it.
func TestFolderMutexHeldFailsClearly(t *testing.T) {
	src, target := t.TempDir(), filepath.Join(t.TempDir(), "skills")
	skills := writeSource(t, src, "v1", "alpha")
	first, err := Plan(os.DirFS(src), skills, target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = Plan(os.DirFS(src), skills, target, Options{MutexWait: 200 * time.Millisecond})
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("second sync while the first holds the lock: %v; want ErrBusy", err)
	}
	if waited := time.Since(start); waited < 200*time.Millisecond {
		t.Fatalf("second sync gave up after %v without waiting", waited)
	}
	for _, want := range []string{filepath.Join(target, filenames.FolderMutex), fmt.Sprintf("process %d", os.Getpid()), "remove that file"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// Once the first is done, the second goes ahead.
	done := make(chan error)
	go func() {
		p, err := Plan(os.DirFS(src), skills, target, Options{})
		if err == nil {
			err = errors.Join(p.Apply(), p.Close())
		}
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := errors.Join(first.Apply(), first.Close()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("sync after the lock was released: %v", err)
	}
}

// TestSyncTakesOverMutexOfDeadProcess leaves a mutex behind as a killed sync does, with the id
// of a process that has ended: the next sync takes it over at once.
func TestSyncTakesOverMutexOfDeadProcess(t *testing.T) {
	src, target := t.TempDir(), t.TempDir()
	skills := writeSource(t, src, "v1", "alpha")
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(target, filenames.FolderMutex)
	writeMode(t, lock, fmt.Sprintf("%d 0badcafe\n", dead.Process.Pid), 0o644)
	start := time.Now()
	if got := syncOnce(t, src, skills, target, Options{MutexWait: time.Minute}); got["alpha"] != ActionInstall {
		t.Fatalf("action %v; want install", got["alpha"])
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Fatalf("waited %v for the lock of a dead process", waited)
	}
	if _, err := os.Lstat(lock); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("lock left after the sync: %v", err)
	}
}

// TestSyncStoppedBeforeApplyLeavesNoFolder shows that planning a sync that is then abandoned
// (an audit refuses it) leaves neither the folder it created nor a mutex.
func TestSyncStoppedBeforeApplyLeavesNoFolder(t *testing.T) {
	src, parent := t.TempDir(), t.TempDir()
	target := filepath.Join(parent, ".agent", "skills")
	p, err := Plan(os.DirFS(src), writeSource(t, src, "v1", "alpha"), target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(parent, ".agent")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an abandoned sync left its folder: %v", err)
	}
}

func TestSyncRefusesEmptyOrRootFolder(t *testing.T) {
	for _, dir := range []string{"", "/"} {
		if _, err := Plan(os.DirFS(t.TempDir()), nil, dir, Options{}); err == nil {
			t.Errorf("target %q accepted", dir)
		}
	}
}
