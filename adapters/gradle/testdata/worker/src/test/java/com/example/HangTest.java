package com.example;

// A test that deadlocks: this thread takes a then b, the other b then a.
public class HangTest {
    private static final Object a = new Object();
    private static final Object b = new Object();

    public void deadlocks() throws InterruptedException {
        Thread other = new Thread(() -> {
            synchronized (b) {
                pause();
                synchronized (a) {
                }
            }
        }, "other-locker");
        other.start();
        synchronized (a) {
            pause();
            synchronized (b) {
            }
        }
        other.join();
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
