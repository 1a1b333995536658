package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// blobLog records the blobs that concurrent writers wrote.
type blobLog struct {
	mu      sync.Mutex
	written map[Hash][]byte
}

func (l *blobLog) add(h Hash, data []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.written[h] = data
}

// TestPackLooseConcurrentWriters packs, from two Repos at once, while
// blobs are written through the packing Repo, through a second Repo on
// the same repository (as another process would) and by the git command
// line. Every blob written must still be readable afterwards.
func TestPackLooseConcurrentWriters(t *testing.T) {
	r := diskRepo(true)(t)
	other, err := Open(r.GitDir())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	log := &blobLog{written: map[Hash][]byte{}}
	stop := make(chan struct{})
	errs := make(chan error, 8)
	var wg sync.WaitGroup
	for name, write := range map[string]func([]byte) (Hash, error){
		"same": r.Writes().WriteBlob, "other": other.Writes().WriteBlob, "git": gitHashObject(r.GitDir()),
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- writeBlobsUntil(stop, name, write, log)
		}()
	}
	var packed atomic.Int64
	for _, packer := range []*Repo{r, other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- packUntil(stop, packer, &packed)
		}()
	}
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if packed.Load() == 0 {
		t.Error("nothing was packed")
	}
	t.Logf("%d blobs written, %d objects packed", len(log.written), packed.Load())
	checkReadable(t, r.GitDir(), log.written)
}

func writeBlobsUntil(stop <-chan struct{}, name string, write func([]byte) (Hash, error), log *blobLog) error {
	for i := 0; ; i++ {
		select {
		case <-stop:
			return nil
		default:
		}
		data := []byte(fmt.Sprintf("%s blob %d\n", name, i))
		h, err := write(data)
		if err != nil {
			return fmt.Errorf("%s writer, blob %d: %w", name, i, err)
		}
		log.add(h, data)
	}
}

func packUntil(stop <-chan struct{}, r *Repo, packed *atomic.Int64) error {
	for {
		select {
		case <-stop:
			return nil
		case <-time.After(20 * time.Millisecond):
		}
		n, err := r.Packs().PackLoose()
		if err != nil {
			return err
		}
		packed.Add(int64(n))
	}
}

// gitHashObject returns a blob writer that runs `git hash-object -w`.
func gitHashObject(dir string) func([]byte) (Hash, error) {
	return func(data []byte) (Hash, error) {
		out, err := gitErr(dir, string(data), "hash-object", "-w", "--stdin")
		if err != nil {
			return ZeroHash, err
		}
		h, ok := parseHex(strings.TrimSpace(out))
		if !ok {
			return ZeroHash, fmt.Errorf("git hash-object printed %q", out)
		}
		return h, nil
	}
}

// TestWriteWhileFanoutFoldersVanish writes blobs while another goroutine
// keeps removing empty fan-out folders, as PackLoose in another process
// does: no write may fail.
func TestWriteWhileFanoutFoldersVanish(t *testing.T) {
	r := diskRepo(true)(t)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			for i := range 256 {
				os.Remove(filepath.Join(r.Objects().objectsDir(), fmt.Sprintf("%02x", i)))
			}
		}
	}()
	log := &blobLog{written: map[Hash][]byte{}}
	err := writeBlobsN(r, 400, log)
	close(stop)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	checkReadable(t, r.GitDir(), log.written)
}

func writeBlobsN(r *Repo, n int, log *blobLog) error {
	for i := range n {
		data := []byte(fmt.Sprintf("blob %d\n", i))
		h, err := r.Writes().WriteBlob(data)
		if err != nil {
			return err
		}
		log.add(h, data)
	}
	return nil
}
