//go:build unix

package testenv

import (
	"os/exec"
	"syscall"
)

// ownGroup makes cmd start a process group of its own, so that killGroup stops the
// children it forks too.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the process group cmd started.
func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
