package dev.quarantine.sandbox;

import java.util.concurrent.CountDownLatch;

/**
 * The child of {@link ChildJvmTest}: says it is up, then waits for its parent to go (or exits at once with 3); its
 * shutdown hook says it stopped.
 */
public final class ChildJvmTestMain {

    private ChildJvmTestMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("exit")) {
            System.out.println("giving up");
            System.exit(3);
        }
        ChildJvm.exitWhenParentGoes(System.in);
        Runtime.getRuntime().addShutdownHook(new Thread(ChildJvmTestMain::stopping));
        System.out.println("child up");
        new CountDownLatch(1).await();
    }

    /** A shutdown hook that takes a moment, as a worker's does (Connect stops its herder and its extensions). */
    private static void stopping() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        System.out.println("child stopped");
    }
}
