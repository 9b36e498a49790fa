package dev.quarantine.streams;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;

import dev.quarantine.sandbox.LocalKafka;

/**
 * The test app: 1,000 inputs "0".."999"; inputs 50, 150, ..., 950 make poison outputs of three kinds, in turn:
 * larger than max.request.size, larger than the output topic's max.message.bytes, a null key into a compacted topic.
 */
final class PoisonTopology {

    static final int INPUTS = 1000;
    static final int OUTPUT_MAX_MESSAGE_BYTES = 50_000;

    final String input;
    final String output;
    final String compacted;
    final String deadLetters;

    PoisonTopology(String prefix) {
        input = prefix + "-input";
        output = prefix + "-output";
        compacted = prefix + "-compacted";
        deadLetters = prefix + "-dlq";
    }

    void createTopics(LocalKafka kafka) {
        kafka.createTopic(input, 2, Map.of());
        kafka.createTopic(output, 2, Map.of("max.message.bytes", String.valueOf(OUTPUT_MAX_MESSAGE_BYTES)));
        kafka.createTopic(compacted, 1, Map.of("cleanup.policy", "compact"));
        kafka.createTopic(deadLetters, 1, Map.of());
    }

    static boolean isPoison(int i) {
        return i % 100 == 50;
    }

    /** 0: too large for the producer, 1: too large for the output topic, 2: null key into the compacted topic. */
    static int kind(int i) {
        return (i / 100) % 3;
    }

    static Set<String> goodOutputs() {
        return goodOutputs(INPUTS);
    }

    /** "out-i" for every input {@code i} below {@code count} that is not poison: what must be committed, once. */
    static Set<String> goodOutputs(int count) {
        Set<String> values = new HashSet<>();
        for (int i = 0; i < count; i++) {
            if (!isPoison(i)) {
                values.add("out-" + i);
            }
        }
        return values;
    }

    /** Inputs "0".."count-1" with keys "key-0".."key-(count-1)", to produce with {@link RunningApp#produce}. */
    static List<String[]> inputs(int count) {
        List<String[]> inputs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            inputs.add(new String[] {"key-" + i, String.valueOf(i)});
        }
        return inputs;
    }

    Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> in = builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()));
        in.filter((k, v) -> !(isPoison(Integer.parseInt(v)) && kind(Integer.parseInt(v)) == 2))
                .mapValues(PoisonTopology::outputValue)
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        in.filter((k, v) -> isPoison(Integer.parseInt(v)) && kind(Integer.parseInt(v)) == 2)
                .selectKey((k, v) -> (String) null)
                .to(compacted, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    private static String outputValue(String value) {
        int i = Integer.parseInt(value);
        if (!isPoison(i)) {
            return "out-" + i;
        }
        return kind(i) == 0 ? "x".repeat(2_000_000) : "x".repeat(60_000);
    }

    Properties streamsConfig(LocalKafka kafka, String applicationId, Path stateDir) {
        return StreamsTestProps.exactlyOnce(kafka, applicationId, stateDir, deadLetters);
    }
}
