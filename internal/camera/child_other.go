//go:build !linux

package camera

import "os/exec"

// childAttrs: only Linux can tie a child's life to the server's; elsewhere Close ends the children.
func childAttrs(cmd *exec.Cmd) {}
