//go:build !linux

package nodeinspect

func setQuickAck(int) {}
