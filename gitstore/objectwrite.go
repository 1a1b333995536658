package gitstore

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/go-git/go-git/v5/plumbing"
)

// WriteBlob stores data as a blob and returns its id.
func (r *Writes) WriteBlob(data []byte) (Hash, error) {
	return r.writeObject(plumbing.BlobObject, data)
}

// writeObject stores an object unless it already exists.
func (r *Writes) writeObject(t plumbing.ObjectType, data []byte) (Hash, error) {
	return r.putObject(t, data, false)
}

// writeOwnedObject is writeObject of data the caller hands over and never changes again:
// while objects are held, it is kept as it is, not copied. A batch that rewrites a folder of
// 10,000 skills for each publish would otherwise copy each version once more.
func (r *Writes) writeOwnedObject(t plumbing.ObjectType, data []byte) (Hash, error) {
	return r.putObject(t, data, true)
}

// putObject is writeObject; owned says whether data is handed over.
func (r *Writes) putObject(t plumbing.ObjectType, data []byte, owned bool) (Hash, error) {
	h := plumbing.ComputeHash(t, data)
	if r.objects != nil {
		if _, _, ok := r.heldObj.info(h); ok || r.objects.HasSeen(h) {
			return h, nil
		}
		if held, err := r.holdObject(t, h, data, owned); held {
			return h, err
		}
	}
	r.objMu.Lock()
	defer r.objMu.Unlock()
	if r.objects == nil && r.storer.HasEncodedObject(h) == nil {
		return h, nil
	}
	if !r.mem {
		return h, r.writeLoose(t, h, data)
	}
	obj := r.storer.NewEncodedObject()
	obj.SetType(t)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err == nil {
		_, err = w.Write(data)
	}
	if err == nil {
		err = w.Close()
	}
	if err == nil {
		err = r.storeObject(obj)
	}
	if err != nil {
		return ZeroHash, fmt.Errorf("writing %s %s: %w", t, h, err)
	}
	return h, nil
}

// storeObject stores obj, trying again when its fan-out folder vanished
// while go-git moved the object into it: PackLoose in another process
// removes the folders it empties, and go-git, unlike git, does not retry.
// The caller holds objMu.
func (r *Writes) storeObject(obj plumbing.EncodedObject) error {
	var err error
	for range 3 {
		if _, err = r.storer.SetEncodedObject(obj); !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return err
}
