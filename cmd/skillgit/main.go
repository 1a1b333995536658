// Command skillgit keeps Agent Skills in a git repository and runs their life in git.
package main

import (
	"os"
)

func main() {
	tuneGC()
	os.Exit(Main(os.Args[1:], Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
