package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestLimitTunerFollowsLiveHeap keeps 48 MiB alive under a floor of 8 MiB: after a few
// collections the soft limit is at least twice what is alive, and it is put back afterwards.
func TestLimitTunerFollowsLiveHeap(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	tuner := &limitTuner{floor: 8 << 20}
	debug.SetMemoryLimit(tuner.floor)
	tuner.arm()
	defer tuner.stopped.Store(true)
	keep := make([][]byte, 48)
	for i := range keep {
		keep[i] = make([]byte, 1<<20)
	}
	deadline := time.Now().Add(10 * time.Second)
	for debug.SetMemoryLimit(-1) < 96<<20 {
		if time.Now().After(deadline) {
			t.Fatalf("soft limit %d MiB with 48 MiB alive; want at least 96 MiB", debug.SetMemoryLimit(-1)>>20)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(keep)
}

// TestLimitTunerFloor: a small heap leaves the limit at the floor.
func TestLimitTunerFloor(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	tuner := &limitTuner{floor: 1 << 40}
	tuner.adjust(10 << 20)
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Fatalf("limit %d; want the floor", got)
	}
}

// TestLimitForStopsAtTheCeiling: the limit is twice the live heap up to the ceiling, stays at
// the ceiling while the live heap is under two thirds of it, and then follows the live heap at
// ceilingFactor.
func TestLimitForStopsAtTheCeiling(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ live, want int64 }{
		{10 * mib, memoryFloor},
		{70 * mib, 140 * mib},
		{80 * mib, 160 * mib},
		{100 * mib, 160 * mib},
		{120 * mib, 180 * mib},
		{300 * mib, 450 * mib},
	} {
		if got := limitFor(memoryFloor, c.live); got != c.want {
			t.Errorf("limitFor(%d MiB live) = %d MiB; want %d MiB", c.live/mib, got/mib, c.want/mib)
		}
	}
}
