// Command skillgit keeps Agent Skills in a git repository and runs their life in git.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	tuneGC()
	os.Exit(Main(os.Args[1:], Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}

// tuneGC trades memory for time in a process that lives well under a second: the collector
// runs a quarter as often, and a soft limit makes it work harder again before the heap nears
// the 200 MiB the commands are meant to stay under. GOGC and GOMEMLIMIT still win when set.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(128 << 20)
	}
}
