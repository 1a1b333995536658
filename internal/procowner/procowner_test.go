package procowner

import (
	"os"
	"os/exec"
	"testing"
)

func TestSelfIsNotGone(t *testing.T) {
	me := Self()
	if me.PID != os.Getpid() || me.Host == "" {
		t.Fatalf("Self() = %+v", me)
	}
	if me.Gone() {
		t.Fatal("this process is taken for gone")
	}
}

func TestMarshalParse(t *testing.T) {
	o := Owner{PID: 42, Start: 123456, Boot: "b00t", Host: "h\nost"}
	data := append(o.Marshal(), "lock /x/y.lock\nfile 1:2\n"...)
	got, extra, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if got.PID != 42 || got.Start != 123456 || got.Boot != "b00t" || got.Host != "h ost" {
		t.Errorf("Parse = %+v", got)
	}
	if extra["lock"] != "/x/y.lock" || extra["file"] != "1:2" {
		t.Errorf("extra = %v", extra)
	}
	if _, _, err := Parse([]byte("start 1\n")); err != ErrIncomplete {
		t.Errorf("record without pid: %v; want ErrIncomplete", err)
	}
	if _, _, err := Parse(make([]byte, maxRecord+1)); err == nil {
		t.Error("an oversized record was read")
	}
}

// deadChild returns the owner record of a child process that has exited.
func deadChild(t *testing.T) Owner {
	t.Helper()
	cmd := exec.Command("sh", "-c", "exit 0")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	start, _ := startTime(pid)
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	me := Self()
	return Owner{PID: pid, Start: start, Boot: me.Boot, Host: me.Host}
}

func TestGone(t *testing.T) {
	me := Self()
	dead := deadChild(t)
	if !dead.Gone() {
		t.Errorf("an exited child %+v is not gone", dead)
	}
	reused := me
	reused.Start = me.Start + 1
	if me.Start != 0 && !reused.Gone() {
		t.Error("a record of this pid with another start time is not gone: a reused pid is taken for its owner")
	}
	rebooted := me
	rebooted.Boot = "another-boot"
	if me.Boot != "" && !rebooted.Gone() {
		t.Error("a record from another boot is not gone")
	}
	elsewhere := dead
	elsewhere.Host = me.Host + "-other"
	if elsewhere.Gone() {
		t.Error("an owner on another host is judged gone")
	}
	parent := Owner{PID: os.Getppid(), Host: me.Host}
	if parent.Gone() {
		t.Error("the running parent process, recorded without a start time, is judged gone")
	}
}
