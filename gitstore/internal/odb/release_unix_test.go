//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package odb

import "testing"

// TestConformanceDroppedPages reads every object of the generated repository, from several
// goroutines, through pack maps that release their pages after every few kilobytes handed
// out: what is read after a release, or through a slice taken before it, is what git reads.
func TestConformanceDroppedPages(t *testing.T) {
	old := residentPackBytes
	residentPackBytes = 4 << 10
	defer func() { residentPackBytes = old }()
	dir := generatedRepo(t)
	db := openDB(t, dir)
	p := db.dirs[0].packList()[0]
	if !p.data.mapped || p.data.dropEvery != 4<<10 {
		t.Fatalf("the pack is not mapped with releases: mapped %v, every %d bytes", p.data.mapped, p.data.dropEvery)
	}
	var objs []gitObject
	eachGitObject(t, dir, func(o gitObject) { objs = append(objs, o) })
	readAllConcurrently(t, db, objs, 4)
	if p.data.drops.Load() == 0 {
		t.Fatal("the pack's pages were never released")
	}
	t.Logf("%d objects, %d releases", len(objs), p.data.drops.Load())
}
