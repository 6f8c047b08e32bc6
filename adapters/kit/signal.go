package kit

import (
	"fmt"
	"syscall"

	"strobe/report"
)

// signals is the one table of the signals strobe names, and the crash each
// means when a test process dies of it. Adapters go by name, as frameworks
// print them: numbers differ between Linux and macOS (SIGBUS is 7 on one,
// 10 on the other).
var signals = []struct {
	name  string
	sig   syscall.Signal
	crash report.CrashType
}{
	{"SIGSEGV", syscall.SIGSEGV, report.CrashSegmentationFault},
	{"SIGABRT", syscall.SIGABRT, report.CrashAbort},
	{"SIGKILL", syscall.SIGKILL, report.CrashKilled},
	{"SIGBUS", syscall.SIGBUS, report.CrashBusError},
	{"SIGFPE", syscall.SIGFPE, report.CrashFloatingPoint},
	{"SIGILL", syscall.SIGILL, report.CrashIllegalInstruction},
	{"SIGTERM", syscall.SIGTERM, report.CrashTerminated},
	{"SIGINT", syscall.SIGINT, report.CrashInterrupted},
	{"SIGQUIT", syscall.SIGQUIT, report.CrashUnknown},
	{"SIGTRAP", syscall.SIGTRAP, report.CrashUnknown},
	{"SIGHUP", syscall.SIGHUP, report.CrashUnknown},
	{"SIGUSR1", syscall.SIGUSR1, report.CrashUnknown},
	{"SIGUSR2", syscall.SIGUSR2, report.CrashUnknown},
	{"SIGPIPE", syscall.SIGPIPE, report.CrashUnknown},
	{"SIGALRM", syscall.SIGALRM, report.CrashUnknown},
	{"SIGXCPU", syscall.SIGXCPU, report.CrashUnknown},
	{"SIGXFSZ", syscall.SIGXFSZ, report.CrashUnknown},
	{"SIGSYS", syscall.SIGSYS, report.CrashUnknown},
}

// SignalName is the conventional name of signal number sig ("SIGSEGV"),
// or "signal N" for one the table does not know.
func SignalName(sig int) string {
	for _, s := range signals {
		if int(s.sig) == sig {
			return s.name
		}
	}
	return fmt.Sprintf("signal %d", sig)
}

// SignalNumber is the number of the signal called name on this platform,
// 0 when the table does not know it.
func SignalNumber(name string) int {
	for _, s := range signals {
		if s.name == name {
			return int(s.sig)
		}
	}
	return 0
}

// ExitSignal is the name of the signal the process died of: the runner's
// name, else the number's; "" when it did not die of one strobe names.
func ExitSignal(exit report.Exit) string {
	if exit.SignalName != "" {
		return exit.SignalName
	}
	for _, s := range signals {
		if int(s.sig) == exit.Signal && exit.Signal != 0 {
			return s.name
		}
	}
	return ""
}

// CrashType is the crash a process that died of the signal called name
// had; unknown for a name the table does not know.
func CrashType(name string) report.CrashType {
	for _, s := range signals {
		if s.name == name {
			return s.crash
		}
	}
	return report.CrashUnknown
}

// SignalByText maps a signal's description, as the platform words it
// ("segmentation fault", what go test prints after "signal: "), to its
// name; "" when none matches.
func SignalByText(text string) string {
	for _, s := range signals {
		if s.sig.String() == text {
			return s.name
		}
	}
	if text == "abort trap" { // macOS's SIGABRT
		return "SIGABRT"
	}
	return ""
}
