package nodeinspect

import "golang.org/x/sys/unix"

func setQuickAck(fd int) { unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_QUICKACK, 1) }
