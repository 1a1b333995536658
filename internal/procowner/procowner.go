// Package procowner records which process owns a lock, and tells later whether that process
// is gone: its process id, when it started, the boot it ran in and the host it ran on. A
// process id alone is not enough, as ids are reused; the start time tells a new process with
// an old id from the owner, and the boot id tells that a machine restarted since.
package procowner

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Owner is a process that holds a lock.
type Owner struct {
	// PID is the process id.
	PID int
	// Start is when the process started, in the system's own unit (on Linux, clock ticks
	// since boot); 0 when the system does not tell.
	Start uint64
	// Boot identifies the boot the process ran in; empty when the system does not tell.
	Boot string
	// Host is the host name.
	Host string
}

var self = sync.OnceValue(func() Owner {
	host, _ := os.Hostname()
	pid := os.Getpid()
	start, _ := startTime(pid)
	return Owner{PID: pid, Start: start, Boot: bootID(), Host: host}
})

// Self returns this process as an owner.
func Self() Owner { return self() }

// maxRecord bounds the size of a record that Parse reads.
const maxRecord = 4096

// Marshal renders the owner as the lines of a record: "pid N", "start N", "boot ID" and
// "host NAME".
func (o Owner) Marshal() []byte {
	return fmt.Appendf(nil, "pid %d\nstart %d\nboot %s\nhost %s\n", o.PID, o.Start, oneLine(o.Boot), oneLine(o.Host))
}

// ErrIncomplete reports a record that lacks its process id: one its writer never finished.
var ErrIncomplete = errors.New("incomplete owner record")

// Parse reads a record that Marshal wrote, and other lines, which it returns by key in extra.
func Parse(data []byte) (Owner, map[string]string, error) {
	var o Owner
	extra := map[string]string{}
	if len(data) > maxRecord {
		return o, nil, fmt.Errorf("owner record of %d bytes is larger than %d", len(data), maxRecord)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		key, value, _ := strings.Cut(sc.Text(), " ")
		switch key {
		case "pid":
			o.PID, _ = strconv.Atoi(value)
		case "start":
			o.Start, _ = strconv.ParseUint(value, 10, 64)
		case "boot":
			o.Boot = value
		case "host":
			o.Host = value
		default:
			extra[key] = value
		}
	}
	if o.PID <= 0 {
		return o, extra, ErrIncomplete
	}
	return o, extra, nil
}

// Gone says whether the owner has certainly exited: it ran on this host, and this host has
// restarted since, or no process has its id, or the process with its id started at another
// time. An owner on another host, or one this system cannot judge, is never gone.
func (o Owner) Gone() bool {
	me := Self()
	switch {
	case o.Host == "" || o.Host != me.Host:
		return false
	case o.Boot != "" && me.Boot != "" && o.Boot != me.Boot:
		return true
	case o.PID == me.PID:
		return o.Start != 0 && me.Start != 0 && o.Start != me.Start
	case !alive(o.PID):
		return true
	}
	if o.Start == 0 {
		return false
	}
	start, ok := startTime(o.PID)
	return ok && start != o.Start
}

// String describes the owner for messages.
func (o Owner) String() string {
	return fmt.Sprintf("process %d on %s", o.PID, o.Host)
}

func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
