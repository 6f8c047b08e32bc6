//go:build !linux

package runner

import "syscall"

func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// killRunID has no /proc to read here; the process group kill is all.
func killRunID(id string, w pidWindow) {}

// pidWindow narrows the Linux sweep; there is none here.
type pidWindow struct{ leader int }

func newPIDWindow() pidWindow { return pidWindow{} }
