package dev.quarantine.connect.sink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;

/** Keeps what explains a failed fault test (the sandbox deletes its logs and data on close). */
final class FailureEvidence {

    private FailureEvidence() {
    }

    /** Copies the worker log, the broker's data directory and the transaction state to a new directory. */
    static Path keep(LocalKafka kafka, LocalConnect connect, List<TopicPartition> partitions,
                     List<ConsumerRecord<byte[], byte[]>> copied) {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "quarantine-evidence-" + System.currentTimeMillis());
        try {
            Files.createDirectories(dir);
            Files.copy(connect.logFile(), dir.resolve("connect.log"), StandardCopyOption.REPLACE_EXISTING);
            copyTree(kafka.dataDir(), dir.resolve("broker"));
            Files.writeString(dir.resolve("transactions.txt"), transactions(kafka, partitions));
            List<String> lines = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : copied) {
                lines.add(r.topic() + "-" + r.partition() + "@" + r.offset() + " id=" + NumberedRecords.id(r));
            }
            Files.write(dir.resolve("copied.txt"), lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    private static String transactions(LocalKafka kafka, List<TopicPartition> partitions) {
        StringBuilder out = new StringBuilder();
        try (Admin admin = kafka.admin()) {
            out.append("producers: ").append(admin.describeProducers(partitions).all().get()).append('\n');
            List<String> ids = admin.listTransactions().all().get().stream()
                    .map(TransactionListing::transactionalId).toList();
            Map<String, ?> described = admin.describeTransactions(ids).all().get();
            described.forEach((id, d) -> out.append(id).append(": ").append(d).append('\n'));
        } catch (Exception e) {
            out.append("failed: ").append(e);
        }
        return out.toString();
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
