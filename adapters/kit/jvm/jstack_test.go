package jvm

import (
	"slices"
	"testing"
)

// TestParseJstackOwnable: `jstack -l` ends each thread with the ownable
// synchronizers it holds, "- None" for most: not a frame, not a lock.
// One it holds (a ReentrantLock) stays.
func TestParseJstackOwnable(t *testing.T) {
	dump := `"other-locker" #16 prio=5 os_prio=0 cpu=0.39ms elapsed=7.67s tid=0x00007f5504872ad0 nid=0x2f9f waiting for monitor entry  [0x00007fa6f539d000]
   java.lang.Thread.State: BLOCKED (on object monitor)
	at org.json.junit.HTTPTest.lambda$deadlocks$0(HTTPTest.java:22)
	- waiting to lock <0x000000069bff9958> (a java.lang.Object)
	- locked <0x000000069bff9968> (a java.lang.Object)
	at org.json.junit.HTTPTest$$Lambda$382/0x00007f548420e750.run(Unknown Source)
	at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)

   Locked ownable synchronizers:
	- None

"lock-holder" #17 prio=5 os_prio=0 cpu=0.39ms elapsed=7.67s tid=0x00007f5504872ad1 nid=0x2fa0 waiting on condition  [0x00007fa6f539e000]
   java.lang.Thread.State: TIMED_WAITING (sleeping)
	at java.lang.Thread.sleep(java.base@17.0.15/Native Method)
	at com.example.LockTest.lambda$holds$0(LockTest.java:12)
	at java.lang.Thread.run(java.base@17.0.15/Thread.java:840)

   Locked ownable synchronizers:
	- <0x000000069bff9970> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)
`
	threads := ParseJstack(dump, nil)
	if len(threads) != 2 {
		t.Fatalf("threads %+v, want 2", threads)
	}
	want := []string{
		"org.json.junit.HTTPTest.lambda$deadlocks$0 (HTTPTest.java:22)",
		"- waiting to lock <0x000000069bff9958> (a java.lang.Object)",
		"- locked <0x000000069bff9968> (a java.lang.Object)",
		"org.json.junit.HTTPTest$$Lambda$382/0x00007f548420e750.run (Unknown Source)",
		"java.lang.Thread.run (Thread.java:840)",
	}
	if !slices.Equal(threads[0].Stack, want) {
		t.Errorf("stack\n%q\nwant\n%q", threads[0].Stack, want)
	}
	if last := threads[1].Stack[len(threads[1].Stack)-1]; last != "- <0x000000069bff9970> (a java.util.concurrent.locks.ReentrantLock$NonfairSync)" {
		t.Errorf("lock-holder's stack ends %q, want the ReentrantLock it holds", last)
	}
}
