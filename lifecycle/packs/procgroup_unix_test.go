//go:build unix

package packs

import (
	"os/exec"
	"syscall"
)

// ownGroup makes cmd, once started, lead a process group of its own, with its children.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the process group that cmd leads.
func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
