package worker.org.gradle.process.internal.worker;

// A stand-in for Gradle's test worker main class, under its real name, for
// strobe's stuck-hook tests on a machine without Gradle: it runs the named
// test method on a thread called "Test worker", as Gradle's worker does.
// args: the display name Gradle passes ("Gradle Test Executor 1"), then
// the test class and method.
public class GradleWorkerMain {
    public static void main(String[] args) throws Exception {
        Class<?> c = Class.forName(args[1]);
        Object test = c.getDeclaredConstructor().newInstance();
        Thread t = new Thread(() -> {
            try {
                c.getMethod(args[2]).invoke(test);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "Test worker");
        t.start();
        t.join();
    }
}
