// Command skillgit keeps Agent Skills in a git repository and runs their life in git.
package main

import (
	"os"

	_ "github.com/skillgit/skillgit/internal/hugeheap" // the heap's first part in huge pages, asked before other packages start
)

func main() {
	tuneGC()
	os.Exit(Main(os.Args[1:], Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
