package dev.quarantine.sandbox;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Entry point of the broker child JVM started by {@link LocalKafka}: formats the KRaft storage with Kafka's own
 * {@code StorageTool}, then runs Kafka's own {@code kafka.Kafka} main. It exits as soon as its standard input
 * closes, so the broker never outlives the JVM that started it, even when that JVM is killed.
 */
public final class BrokerMain {

    private BrokerMain() {
    }

    /**
     * @param args the path of a combined-mode server.properties and the cluster id to format the storage with
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: BrokerMain <server.properties> <cluster-id>");
        }
        ChildJvm.exitWhenParentGoes(System.in);
        int formatted = kafka.tools.StorageTool$.MODULE$.execute(
                new String[] {"format", "--ignore-formatted", "-t", args[1], "-c", args[0]},
                new PrintStream(System.out, true, StandardCharsets.UTF_8));
        if (formatted != 0) {
            throw new IllegalStateException("kafka-storage format failed with exit code " + formatted);
        }
        kafka.Kafka.main(new String[] {args[0]});
    }
}
