package published

import (
	"errors"
	"testing"
)

// UseInstalledCache points the cache of installed skills at dir, or turns it off when dir is
// "", and trusts SKILL.md stamps of any age, until tb ends: files a test has just written are
// otherwise too recent to cache.
func UseInstalledCache(tb testing.TB, dir string) {
	oldDir, oldWindow := userCacheDir, racyWindow
	tb.Cleanup(func() { userCacheDir, racyWindow = oldDir, oldWindow })
	racyWindow = 0
	userCacheDir = func() (string, error) {
		if dir == "" {
			return "", errors.New("no cache folder")
		}
		return dir, nil
	}
}
