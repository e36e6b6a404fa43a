//go:build !linux

package ffchild

import "os/exec"

// Attrs: only Linux can tie a child's life to the server's; elsewhere Close ends the children.
func Attrs(cmd *exec.Cmd) {}
