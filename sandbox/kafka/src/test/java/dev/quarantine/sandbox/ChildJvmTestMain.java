package dev.quarantine.sandbox;

import java.util.concurrent.CountDownLatch;

/** The child of {@link ChildJvmTest}: says it is up, then waits for its parent to go (or exits at once with 3). */
public final class ChildJvmTestMain {

    private ChildJvmTestMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("exit")) {
            System.out.println("giving up");
            System.exit(3);
        }
        ChildJvm.exitWhenParentGoes(System.in);
        System.out.println("child up");
        new CountDownLatch(1).await();
    }
}
