package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.props;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.connect.BuiltPlugin;
import dev.quarantine.connect.faults.FaultyConverter;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;

/**
 * Shared pieces of the fault suite: a worker classpath that also holds the {@link FaultyConverter}, a source topic
 * of three partitions with its copy and a DLQ, producing keyed records, and the exactly-once check by key.
 */
final class FaultSuite {

    static final String PLUGIN = TransactionalKafkaSinkConnector.class.getName();
    static final Duration LANDED = Duration.ofSeconds(Long.getLong("quarantine.faults.wait.seconds", 180));

    private FaultSuite() {
    }

    /** A worker (not started) loading the plugin from plugin.path, with the test converter on its classpath. */
    static LocalConnect worker(LocalKafka kafka) {
        return worker(kafka, Map.of());
    }

    /** As {@link #worker(LocalKafka)}, with these worker settings. */
    static LocalConnect worker(LocalKafka kafka, Map<String, String> overrides) {
        return LocalConnect.create(kafka, BuiltPlugin.PLUGIN_PATH, workerClasspath(), overrides);
    }

    /**
     * The worker's classpath (Kafka's jars only) plus a jar with the test converter, never the plugin. The jar is
     * named by the converter's bytes and written once into the module's target/ (a classpath of jars whose sizes and
     * times stay put keeps the sandbox's class archive of the worker).
     */
    private static List<Path> workerClasspath() {
        List<Path> classpath = new ArrayList<>(BuiltPlugin.workerClasspath());
        String file = FaultyConverter.class.getName().replace('.', '/') + ".class";
        try (InputStream in = FaultyConverter.class.getResourceAsStream("/" + file)) {
            byte[] bytes = in.readAllBytes();
            String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 8);
            Path jar = Path.of("target", "faulty-converter-" + digest + ".jar").toAbsolutePath();
            if (!Files.isRegularFile(jar)) {
                Path writing = Files.createTempFile(jar.getParent(), "faulty-converter-", ".tmp");
                try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(writing))) {
                    out.putNextEntry(new JarEntry(file));
                    out.write(bytes);
                    out.closeEntry();
                }
                try {
                    Files.move(writing, jar); // a rename; another test JVM's jar, if there, is kept with its time
                } catch (FileAlreadyExistsException written) {
                    Files.delete(writing);
                }
            }
            classpath.add(jar);
            return classpath;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Source {@code <test>-<n>-in} (3 partitions), its copy {@code copy.<source>} (3 partitions) and a DLQ. */
    record Topics(String name, String source, String target, String dlq) {
        static Topics create(LocalKafka kafka, String test) {
            String name = test + "-" + Long.toHexString(System.nanoTime()).substring(6);
            Topics topics = new Topics(name, name + "-in", "copy." + name + "-in", name + "-dlq");
            kafka.createTopic(topics.source, 3, Map.of());
            kafka.createTopic(topics.target, 3, Map.of());
            kafka.createTopic(topics.dlq, 1, Map.of());
            return topics;
        }
    }

    static Map<String, String> connectorConfig(LocalKafka kafka, Topics topics, String... overrides) {
        Map<String, String> config = props(
                "connector.class", PLUGIN,
                "tasks.max", "2",
                "topics", topics.source(),
                "target.bootstrap.servers", kafka.bootstrapServers(),
                "target.topic.format", "copy.${topic}",
                "dlq.topic.name", topics.dlq(),
                "consumer.override.max.poll.records", "200",
                "consumer.override.isolation.level", "read_committed");
        config.putAll(props(overrides));
        return config;
    }

    /** Produces records {@code from..to-1}: key {@code key-<i>}, header {@code id}, value {@code values(i)}. */
    static void produce(LocalKafka kafka, String topic, int from, int to, IntFunction<byte[]> values) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = from; i < to; i++) {
                RecordHeaders headers = new RecordHeaders();
                headers.add("id", String.valueOf(i).getBytes(StandardCharsets.UTF_8));
                producer.send(new ProducerRecord<>(topic, null, null, key(i), values.apply(i), headers));
            }
        }
    }

    static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Asserts that the target holds exactly the keys of {@code copied} and the DLQ those of {@code deadLettered}. */
    static void assertExactlyOnce(List<ConsumerRecord<byte[], byte[]>> target,
                                  List<ConsumerRecord<byte[], byte[]>> dlq, Set<Integer> copied,
                                  Set<Integer> deadLettered) {
        assertThat(keys(target)).as("target: every good record exactly once").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(copied.stream().map(i -> "key-" + i).toList());
        assertThat(keys(dlq)).as("DLQ: every poison record exactly once").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(deadLettered.stream().map(i -> "key-" + i).toList());
    }

    static List<String> keys(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> text(r.key())).collect(Collectors.toList());
    }
}
