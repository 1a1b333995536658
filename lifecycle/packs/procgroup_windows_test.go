package packs

import "os/exec"

// ownGroup leaves cmd as it is: Windows has no process groups to kill at once.
func ownGroup(*exec.Cmd) {}

// killGroup kills cmd's process.
func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }
