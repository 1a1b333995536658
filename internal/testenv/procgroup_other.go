//go:build !unix

package testenv

import "os/exec"

// ownGroup leaves cmd as it is: without process groups, killGroup kills the process alone.
func ownGroup(*exec.Cmd) {}

// killGroup kills the process cmd started.
func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
