package hugeheap

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestWanted(t *testing.T) {
	for _, c := range []struct {
		mode, godebug string
		want          bool
	}{
		{"madvise", "", true},
		{"madvise", "gctrace=1", true},
		{"madvise", "disablethp=1", false},
		{"madvise", "gctrace=1,disablethp=1", false},
		{"madvise", "disablethp=1,disablethp=0", true},
		{"madvise", "disablethp=0", true},
		{"always", "", false},
		{"never", "", false},
		{"", "", false},
	} {
		if got := wanted(c.mode, c.godebug); got != c.want {
			t.Errorf("wanted(%q, %q) = %v, want %v", c.mode, c.godebug, got, c.want)
		}
	}
}

func TestSelected(t *testing.T) {
	for line, want := range map[string]string{
		"always [madvise] never\n": "madvise",
		"[always] madvise never\n": "always",
		"always madvise [never]":   "never",
		"always madvise never":     "",
		"always [madvise never":    "",
		"":                         "",
	} {
		if got := selected(line); got != want {
			t.Errorf("selected(%q) = %q, want %q", line, got, want)
		}
	}
	if got := readMode("/nonexistent/enabled"); got != "" {
		t.Errorf("readMode of a missing file = %q, want empty", got)
	}
}

// TestInitAskedAsTheKernelAllows checks that the package's own ask at start was made exactly
// when the kernel's mode and GODEBUG call for it, and that the kernel marked that memory;
// then that Settle withdraws it.
func TestInitAskedAsTheKernelAllows(t *testing.T) {
	want := wanted(readMode(modeFile), os.Getenv("GODEBUG")) && roomFor()
	region.Lock()
	start, size := region.start, region.size
	region.Unlock()
	if want != (size == regionSize) {
		t.Fatalf("mode %q: region of %d bytes asked at start, want asked = %v", readMode(modeFile), size, want)
	}
	if !want {
		return
	}
	if flags := vmFlags(t, start); !hasFlag(flags, "hg") {
		t.Fatalf("the region at %#x is not marked for huge pages: VmFlags %q", start, flags)
	}
	Settle()
	if flags := vmFlags(t, start); !hasFlag(flags, "nh") {
		t.Fatalf("after Settle the region at %#x is not marked against huge pages: VmFlags %q", start, flags)
	}
	region.Lock()
	defer region.Unlock()
	if region.size != 0 {
		t.Fatalf("Settle left the region recorded: %d bytes", region.size)
	}
}

// TestAdviseMarksItsMemory asks for huge pages on new heap and finds the mark in the
// process's map, wherever the kernel supports them at all.
func TestAdviseMarksItsMemory(t *testing.T) {
	if _, err := os.Stat(modeFile); err != nil {
		if advise(4 << 20) {
			t.Fatal("a kernel without transparent huge pages took the ask")
		}
		return
	}
	if !advise(8 << 20) {
		t.Fatal("the kernel refused MADV_HUGEPAGE although it has transparent huge pages")
	}
	region.Lock()
	start := region.start
	region.Unlock()
	if flags := vmFlags(t, start); !hasFlag(flags, "hg") {
		t.Fatalf("advised memory at %#x is not marked for huge pages: VmFlags %q", start, flags)
	}
	Settle()
}

// vmFlags returns the VmFlags line of the mapping of this process that holds addr.
func vmFlags(t *testing.T, addr uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := mapRange(line); ok {
			in = lo <= addr && addr < hi
			continue
		}
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.TrimSpace(rest)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("no mapping holds %#x", addr)
	return ""
}

// hasFlag reports whether the VmFlags line flags holds the two-letter flag f.
func hasFlag(flags, f string) bool { return slices.Contains(strings.Fields(flags), f) }

// mapRange parses the address range that begins a mapping's header line in smaps.
func mapRange(line string) (lo, hi uintptr, ok bool) {
	field, _, _ := strings.Cut(line, " ")
	a, b, ok := strings.Cut(field, "-")
	if !ok {
		return 0, 0, false
	}
	l, err1 := strconv.ParseUint(a, 16, 64)
	h, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(l), uintptr(h), true
}

// TestNoAskInABoundedAddressSpace runs this test binary again under `ulimit -v` and finds that
// its start asked for nothing, where the same binary without the bound asks as the kernel
// allows: under a bound, the mapping could be what ends the process.
func TestNoAskInABoundedAddressSpace(t *testing.T) {
	if os.Getenv("HUGEHEAP_REPORT") == "1" {
		region.Lock()
		fmt.Printf("region %d\n", region.size)
		region.Unlock()
		return
	}
	report := func(shell string) string {
		cmd := exec.Command("bash", "-c", shell+`exec "$0" -test.run='^TestNoAskInABoundedAddressSpace$' -test.count=1`, os.Args[0])
		cmd.Env = append(os.Environ(), "HUGEHEAP_REPORT=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", shell, err, out)
		}
		for line := range strings.Lines(string(out)) {
			if rest, ok := strings.CutPrefix(line, "region "); ok {
				return strings.TrimSpace(rest)
			}
		}
		t.Fatalf("%s: no region reported:\n%s", shell, out)
		return ""
	}
	if got := report("ulimit -v 8388608; "); got != "0" {
		t.Errorf("under ulimit -v the start asked for huge pages on %s bytes; want none", got)
	}
	free := "0"
	if wanted(readMode(modeFile), os.Getenv("GODEBUG")) && firstLine(overcommitFile) != "2" {
		free = strconv.Itoa(regionSize)
	}
	if got := report("ulimit -v unlimited 2>/dev/null; "); got != free {
		t.Errorf("without a bound the start asked for %s bytes; want %s", got, free)
	}
}
