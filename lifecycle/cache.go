package lifecycle

import (
	"github.com/skillgit/skillgit/internal/atomicfile"
	"github.com/skillgit/skillgit/internal/cachefile"
)

// writeFileAtomic writes data beside name and renames it into place.
func writeFileAtomic(name string, data []byte) error {
	return atomicfile.Write(name, data, atomicfile.Options{})
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// buildID names the running build of skillgit, for the caches that record it.
func buildID() string { return cachefile.BuildID() }

// readCacheFile reads a cache file whole, unless it is larger than maxCacheFile.
func readCacheFile(name string) ([]byte, bool) { return cachefile.Read(name, maxCacheFile) }

// maxCacheFile bounds a cache file read back; a larger one is ignored.
const maxCacheFile = 64 << 20
