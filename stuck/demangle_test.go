package stuck

import "testing"

func TestDemangleRust(t *testing.T) {
	for in, want := range map[string]string{
		// v0, from libtest's main thread and a spawned test thread (eu-stack 0.188 leaves them so).
		"_RNvMs_NtNtCsjrHSEGnQ3l9_3std6thread6threadNtB4_6Thread12park_timeout":                                                    "<std::thread::thread::Thread>::park_timeout",
		"_RNvCs3mSbOeLENLV_4test9test_main":                                                                                        "test::test_main",
		"_RNvNvMs0_NtNtNtCsjrHSEGnQ3l9_3std3sys6thread4unixNtB7_6Thread3new12thread_start":                                         "<std::sys::thread::unix::Thread>::new::thread_start",
		"_RNCNvMs1_NtNtNtCsjrHSEGnQ3l9_3std4sync4mpmc4listINtB7_7ChannelNtNtCs3mSbOeLENLV_4test5event13CompletedTestE4recvs_0B12_": "<std::sync::mpmc::list::Channel<test::event::CompletedTest>>::recv::{{closure}}",
		// legacy, as eu-stack half-demangles it
		"std::thread::lifecycle::JoinInner$LT$T$GT$::join":                                                                               "std::thread::lifecycle::JoinInner<T>::join",
		"rustdeadlock::tests::deadlock::_$u7b$$u7b$closure$u7d$$u7d$":                                                                    "rustdeadlock::tests::deadlock::{{closure}}",
		"_$LT$core..panic..unwind_safe..AssertUnwindSafe$LT$F$GT$$u20$as$u20$core..ops..function..FnOnce$LT$$LP$$RP$$GT$$GT$::call_once": "<core::panic::unwind_safe::AssertUnwindSafe<F> as core::ops::function::FnOnce<()>>::call_once",
		// legacy, left whole by eu-stack -s -i in a release build
		"_ZN5tokio7runtime4park5Inner4park17hc1568231211a1e9bE.llvm.13382112244319271577": "tokio::runtime::park::Inner::park::hc1568231211a1e9b",
		"lock_a_then_b()":   "lock_a_then_b()",
		"_RNotAValidSymbol": "_RNotAValidSymbol",
	} {
		if got := demangleRust(in); got != want {
			t.Errorf("demangleRust(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}
