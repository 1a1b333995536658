// Package hugeheap, imported for its effect by the command, asks Linux to back the first
// part of the heap with huge pages. Where transparent huge pages are given only to memory
// that asks for them (their "madvise" mode, the default of many distributions), every
// 4 KiB page of new heap costs the process a fault on first touch: some 11 µs each in a
// virtual machine, 9,800 of them when listing 10,000 skills from a fresh clone, which was a
// third of that command's time. With the heap's first 256 MiB asked for huge pages, the
// same listing takes about 2,000 faults.
//
// The ask is made during package initialisation, before the other packages of the command
// build their tables: a heap object of that size is mapped, marked with
// madvise(MADV_HUGEPAGE), and dropped. The collection its size starts frees it, and the
// heap's next objects are placed in the marked memory, which keeps the mark when the
// runtime gives pages back and takes them again.
//
// Nothing is asked where the kernel already gives huge pages to all memory or to none, when
// GODEBUG's disablethp=1 asks the Go runtime to keep them off the heap, or where the mapping
// itself could be refused: under a bound on the address space (ulimit -v) or strict
// overcommit. A long-running server calls Settle, so that the kernel's background merging
// does not fill back into huge pages what the runtime gives back. On other systems the
// package does nothing.
package hugeheap
