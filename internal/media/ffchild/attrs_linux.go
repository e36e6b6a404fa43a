package ffchild

import (
	"os/exec"
	"syscall"
)

// Attrs makes a child die with the server (SIGKILL when the parent thread exits), so no ffmpeg outlives a
// crashed or killed server.
func Attrs(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
