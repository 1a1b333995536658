package hugeheap

import (
	"os"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// regionSize is how much of the heap is asked to be backed by huge pages: the peak of a
// listing of 10,000 skills (70 MiB) and of a batch of 10,000 publishes (175 MiB) fit. The
// mapping takes address space only; pages are backed when the heap first touches them.
const regionSize = 256 << 20

// modeFile holds the kernel's transparent huge page mode, such as "always [madvise] never";
// overcommitFile the kernel's overcommit policy, 2 when every mapping is charged up front.
const (
	modeFile       = "/sys/kernel/mm/transparent_hugepage/enabled"
	overcommitFile = "/proc/sys/vm/overcommit_memory"
)

// region is the span of heap asked to be backed by huge pages; zero when none was.
var region struct {
	sync.Mutex
	start, size uintptr
}

func init() {
	if wanted(readMode(modeFile), os.Getenv("GODEBUG")) && roomFor() {
		advise(regionSize)
	}
}

// roomFor reports whether mapping the region cannot fail where the command alone would not:
// a process whose address space is bounded (ulimit -v), or a kernel that charges every
// mapping against a fixed limit (overcommit policy 2), could be refused the mapping, and the
// Go runtime ends a process whose heap cannot grow.
func roomFor() bool {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil || lim.Cur != ^uint64(0) {
		return false
	}
	return firstLine(overcommitFile) != "2"
}

// wanted reports whether to ask for huge pages: only in the kernel's madvise mode, and not
// when godebug, the GODEBUG setting, ends with disablethp=1 (its last setting wins).
func wanted(mode, godebug string) bool {
	if mode != "madvise" {
		return false
	}
	off := false
	for _, kv := range strings.Split(godebug, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == "disablethp" {
			off = v == "1"
		}
	}
	return !off
}

// readMode returns the selected mode of the mode file at path, the word in brackets; empty
// when the file is absent or holds no selection.
func readMode(path string) string { return selected(firstLine(path)) }

// firstLine returns the start of the small kernel file at path, without its newline; empty
// when it cannot be read.
func firstLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var buf [128]byte
	n, _ := f.Read(buf[:])
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	return line
}

// selected is the bracketed word of a kernel mode line such as "always [madvise] never".
func selected(line string) string {
	_, rest, ok := strings.Cut(line, "[")
	if !ok {
		return ""
	}
	word, _, ok := strings.Cut(rest, "]")
	if !ok {
		return ""
	}
	return word
}

// advise maps n bytes of heap, asks for huge pages on them, records where, and drops them
// for the collector to free. It reports whether the kernel took the ask.
func advise(n int) bool {
	b := make([]byte, n)
	if err := syscall.Madvise(b, syscall.MADV_HUGEPAGE); err != nil {
		return false
	}
	region.Lock()
	region.start, region.size = uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(n)
	region.Unlock()
	return true
}

// Settle withdraws the ask for the rest of the process, for a server that runs long: the
// huge pages the heap holds stay, and what the runtime gives back stays given back.
func Settle() {
	region.Lock()
	defer region.Unlock()
	if region.size == 0 {
		return
	}
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, region.start, region.size, syscall.MADV_NOHUGEPAGE)
	region.start, region.size = 0, 0
}
