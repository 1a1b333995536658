package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Memory the collector is tuned to, for a process that lives well under a second.
const (
	// gcPercent makes the collector run an eighth as often as by default, and not at all
	// before the heap reaches 32 MiB: most commands then end before the first collection,
	// which on two cores takes one of them from the work for its whole mark phase (a re-sync
	// of 10,000 unchanged skills: 62 ms against 68 at GOGC 400). The soft limit below bounds
	// the peak either way.
	gcPercent = 800
	// memoryFloor is the soft limit that makes it work harder again before the heap nears
	// the 200 MiB the commands are meant to stay under in a repository of 10,000 skills.
	memoryFloor = 128 << 20
	// liveFactor is how many times the heap that survived the last collection the soft
	// limit stays above, so that a repository whose data alone nears the floor does not
	// drive the collector into running back to back.
	liveFactor = 2
	// memoryCeiling is where the limit stops following liveFactor: a batch of 10,000 skills
	// ends with some 100 MiB live, and twice that, with the binary's own pages, passes the
	// 200 MiB. Above the ceiling the limit stays ceilingFactor times the live heap, which
	// still spares the collector from running back to back.
	memoryCeiling = 160 << 20
	ceilingFactor = 1.5
)

// tuneGC trades memory for time: GOGC 800 under a soft limit of 128 MiB that rises with the
// live heap (limitFor). GOGC and GOMEMLIMIT still win when set.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		t := &limitTuner{floor: memoryFloor}
		debug.SetMemoryLimit(t.floor)
		t.arm()
	}
}

// limitTuner keeps the soft memory limit at least liveFactor times the live heap, checked
// after every collection.
type limitTuner struct {
	floor int64
	// limit is the limit last set.
	limit int64
	// stopped ends the checks, after the next collection.
	stopped atomic.Bool
}

// gcSentinel is garbage made on purpose: its finalizer runs after the collection that
// finds it, and makes the next one.
type gcSentinel struct{ t *limitTuner }

func (t *limitTuner) arm() {
	runtime.SetFinalizer(&gcSentinel{t: t}, func(s *gcSentinel) {
		if s.t.stopped.Load() {
			return
		}
		s.t.adjust(liveHeap())
		s.t.arm()
	})
}

// adjust sets the limit for a live heap of live bytes.
func (t *limitTuner) adjust(live int64) {
	want := limitFor(t.floor, live)
	if want != t.limit {
		t.limit = want
		debug.SetMemoryLimit(want)
	}
}

// liveHeap reads the bytes of heap the last collection found in use.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// limitFor is the soft limit for a live heap of live bytes, floor at least.
func limitFor(floor, live int64) int64 {
	want := max(floor, live*liveFactor)
	if ceiling := max(floor, memoryCeiling); want > ceiling {
		want = max(ceiling, int64(float64(live)*ceilingFactor))
	}
	return want
}
