package hooks

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillgit/skillgit/internal/interrupt"
)

// writeAtomic writes data to path with mode 0755 by renaming a finished temporary file over
// it, so git never runs half a hook. before, when not nil, runs just before the rename. The
// temporary file is removed on an error and, if a signal stops the process, by interrupt.
func writeAtomic(path string, data []byte, before func() error) (err error) {
	f, untrack, err := interrupt.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".skillgit-*")
	if err != nil {
		return fmt.Errorf("%s: writing the hook: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
		untrack()
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("%s: writing the hook: %w", path, err)
	}
	if err := f.Chmod(0o755); err != nil {
		f.Close()
		return fmt.Errorf("%s: writing the hook: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: writing the hook: %w", path, err)
	}
	if before != nil {
		if err := before(); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("%s: writing the hook: %w", path, err)
	}
	return nil
}
