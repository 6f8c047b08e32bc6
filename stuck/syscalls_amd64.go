package stuck

// syscallNames are the x86-64 system calls a waiting thread sits in.
var syscallNames = map[int]string{
	0: "read", 1: "write", 7: "poll", 17: "pread64", 19: "readv", 20: "writev", 23: "select", 34: "pause",
	35: "nanosleep", 42: "connect", 43: "accept", 44: "sendto", 45: "recvfrom", 46: "sendmsg", 47: "recvmsg",
	61: "wait4", 70: "msgrcv", 72: "fcntl", 73: "flock", 128: "rt_sigtimedwait", 130: "rt_sigsuspend",
	202: "futex", 208: "io_getevents", 219: "restart_syscall", 230: "clock_nanosleep", 232: "epoll_wait", 243: "mq_timedreceive",
	247: "waitid", 270: "pselect6", 271: "ppoll", 281: "epoll_pwait", 288: "accept4", 295: "preadv",
	299: "recvmmsg", 327: "preadv2", 426: "io_uring_enter", 441: "epoll_pwait2", 449: "futex_waitv",
}
