package dev.quarantine.sandbox;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Entry point of the Connect worker child JVM started by {@link LocalConnect}: runs Kafka's own
 * {@code org.apache.kafka.connect.cli.ConnectDistributed} main (from the worker classpath, which this module does
 * not depend on), and exits as soon as its standard input closes, so the worker never outlives the JVM that started
 * it.
 */
public final class ConnectWorkerMain {

    static final String CONNECT_DISTRIBUTED = "org.apache.kafka.connect.cli.ConnectDistributed";

    private ConnectWorkerMain() {
    }

    /** @param args the path of a worker.properties */
    public static void main(String[] args) throws Throwable {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: ConnectWorkerMain <worker.properties>");
        }
        ChildJvm.exitWhenParentGoes(System.in);
        MethodHandle main = MethodHandles.publicLookup().findStatic(Class.forName(CONNECT_DISTRIBUTED), "main",
                MethodType.methodType(void.class, String[].class));
        main.invoke((Object) args);
    }
}
