package dev.quarantine.sandbox;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Entry point of the broker child JVM started by {@link LocalKafka}: formats the KRaft storage with Kafka's own
 * {@code StorageTool}, then runs Kafka's own {@code kafka.Kafka} main. It exits as soon as its standard input
 * closes, so the broker never outlives the JVM that started it, even when that JVM is killed.
 */
public final class BrokerMain {

    private BrokerMain() {
    }

    /**
     * @param args the path of a combined-mode server.properties, the cluster id to format the storage with, and any
     *             number of {@code feature=level} to format it with ({@code kafka-storage format --feature})
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: BrokerMain <server.properties> <cluster-id> [feature=level]...");
        }
        ChildJvm.exitWhenParentGoes(System.in);
        List<String> format = new ArrayList<>(List.of("format", "--ignore-formatted", "-t", args[1], "-c", args[0]));
        for (int i = 2; i < args.length; i++) {
            format.addAll(List.of("--feature", args[i]));
        }
        int formatted = kafka.tools.StorageTool$.MODULE$.execute(format.toArray(String[]::new),
                new PrintStream(System.out, true, StandardCharsets.UTF_8));
        if (formatted != 0) {
            throw new IllegalStateException("kafka-storage format failed with exit code " + formatted);
        }
        kafka.Kafka.main(new String[] {args[0]});
    }
}
