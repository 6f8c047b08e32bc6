package stuck

// syscallNames are the arm64 system calls a waiting thread sits in.
var syscallNames = map[int]string{
	22: "epoll_pwait", 25: "fcntl", 32: "flock", 63: "read", 64: "write", 65: "readv", 66: "writev",
	67: "pread64", 69: "preadv", 72: "pselect6", 73: "ppoll", 98: "futex", 101: "nanosleep",
	115: "clock_nanosleep", 128: "restart_syscall", 133: "rt_sigsuspend", 137: "rt_sigtimedwait", 180: "mq_timedreceive",
	188: "msgrcv", 202: "accept", 203: "connect", 206: "sendto", 207: "recvfrom", 211: "sendmsg",
	212: "recvmsg", 242: "accept4", 243: "recvmmsg", 260: "wait4", 95: "waitid", 286: "preadv2",
	426: "io_uring_enter", 441: "epoll_pwait2", 449: "futex_waitv", 4: "io_getevents",
}
