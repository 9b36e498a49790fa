package dev.quarantine.connect.sink;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkTaskContext;

import dev.quarantine.connect.sink.cluster.ClusterAdmins;
import dev.quarantine.connect.sink.cluster.TargetTopics;
import dev.quarantine.connect.sink.cluster.WrittenChecks;
import dev.quarantine.connect.sink.cluster.WrittenProbe;
import dev.quarantine.connect.sink.cluster.WrittenRepair;
import dev.quarantine.connect.sink.config.ConfigRules;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.ownership.LeftOpenCompletion;
import dev.quarantine.connect.sink.ownership.Ownership;
import dev.quarantine.connect.sink.ownership.SlotProducer;
import dev.quarantine.connect.sink.ownership.StageBudget;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.connect.sink.progress.ProgressStore;
import dev.quarantine.connect.sink.progress.ProgressTopic;
import dev.quarantine.connect.sink.write.TaskWriter;
import dev.quarantine.connect.sink.write.TxnSendSlotProducer;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.txn.progress.CompactedTopicReader;

/**
 * Builds a task's {@link SinkTaskHandler} over its slots (design 2.1): checks first that the progress topic has the
 * partitions ownership needs (fail fast at start, naming {@code progress.topic.name} and the command that adds one),
 * then one {@link TaskSlot} per slot with its producer, its {@link Ownership} over an admin client of the target
 * producer's principal (fences, and the epoch described after each init) and a reader of the progress topic.
 */
final class TaskSlots {

    /** {@code producers.per.task}: one slot per task until the setting exists. */
    static final int SLOTS = 1;

    private TaskSlots() {
    }

    static SinkTaskHandler handler(SinkTaskContext context, TransactionalSinkConfig config, WriterFactory writers,
                                   ProgressStore progress, TargetTopics targetTopics, ClusterAdmins admins,
                                   Clock clock) {
        return handler(context, config, writers, progress, targetTopics, admins, clock, Optional.empty());
    }

    /** As above; {@code checks}: rule V's checks of tests whose scripted producers write nothing to a broker. */
    static SinkTaskHandler handler(SinkTaskContext context, TransactionalSinkConfig config, WriterFactory writers,
                                   ProgressStore progress, TargetTopics targetTopics, ClusterAdmins admins,
                                   Clock clock, Optional<WrittenChecks> checks) {
        Admin fencing = Admin.create(adminOfProducer(config));
        CompactedTopicReader reader = new CompactedTopicReader(config.adminConfigs(), admins.target());
        WrittenChecks repair = checks.orElseGet(() -> new WrittenRepair(new WrittenProbe(config.adminConfigs(),
                admins.target()), admins.target(), config.progressReadTimeout()));
        AutoCloseable clients = () -> {
            reader.close();
            repair.close();
            fencing.close(Duration.ofSeconds(2));
        };
        try {
            requireProgressPartitions(admins.target(), config);
            StageBudget stages = stages(config, clock);
            Ownership.Limits limits = limits(config);
            String prefix = config.transactionalIdPrefix();
            int task = Integer.parseInt(config.taskId().trim());
            List<TaskSlot> slots = new ArrayList<>();
            for (int slot = 0; slot < SLOTS; slot++) {
                String id = OwnershipRecord.taskId(prefix, task, slot);
                List<TaskWriter> writer = new ArrayList<>(1);
                SlotProducer producer = writers.slotProducer(id, SLOTS, () -> Math.max(1,
                        writer.get(0).committed().size()), TxnSendSlotProducer.describedBy(fencing,
                        config.adminApiTimeout()));
                List<Ownership> owner = new ArrayList<>(1);
                writer.add(writers.taskWriter(() -> producer, committed -> {
                    writers.afterOwnAbort(id, owner.get(0).assigned()); // what the abort itself left open
                    return repair.stillVisible(committed, ConfigRules.AFTER_ABORT_BOUND);
                }));
                SlotProducer repairing = writers.repairingHanging(producer, id, () -> owner.get(0).assigned());
                Ownership ownership = Ownership.of(prefix, config.progressTopic(), id, repairing, fencing, reader,
                        stages, limits, clock, new LeftOpenCompletion(admins.target(), prefix, config.progressTopic(),
                                writers::completionProducer), writers.hanging(),
                        () -> writers.topicsWrittenWithProgress(owner.get(0).assigned()));
                owner.add(ownership);
                slots.add(new TaskSlot(id, producer, ownership, writer.get(0), writers, repair));
            }
            return new SinkTaskHandler(context, prefix, slots, stages, progress, targetTopics, writers,
                    new TransientFailures(config.transientErrorsTimeout(), clock), config.commitTrigger(),
                    ConfigRules.writeBound(config), clock,
                    clients);
        } catch (RuntimeException e) {
            try {
                clients.close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** How much of a put each stage of a slot's {@link Ownership} may take, from the settings. */
    static StageBudget stages(TransactionalSinkConfig config, Clock clock) {
        Duration budget = config.maxPollInterval().minus(config.maxBlock());
        return new StageBudget(config.maxPollInterval(), config.maxBlock(),
                atMost(config.progressReadTimeout(), budget), atMost(config.adminApiTimeout(), budget), clock);
    }

    /** {@code transient.errors.timeout.ms} and the reclaim delay of a slot's {@link Ownership}. */
    static Ownership.Limits limits(TransactionalSinkConfig config) {
        return new Ownership.Limits(config.transientErrorsTimeout(), config.sessionTimeout());
    }

    /**
     * Fails when the progress topic is missing or has fewer partitions than ownership needs
     * ({@link ProgressTopic#partitionProblem}); a topic that cannot be described in time is left to the reads.
     */
    private static void requireProgressPartitions(Admin admin, TransactionalSinkConfig config) {
        Optional<String> problem;
        try {
            if (!admin.listTopics().names().get().contains(config.progressTopic())) {
                throw ProgressTopic.missing(config.progressTopic(), "every source partition of the connector");
            }
            problem = ProgressTopic.partitionProblem(admin, config, config.adminApiTimeout());
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while checking the progress topic", e);
        }
        problem.ifPresent(p -> {
            throw new ConnectException(TransactionalSinkConfig.PROGRESS_TOPIC_NAME_CONFIG + " " + p);
        });
    }

    /** Admin settings of the target producer's principal (connection and security of {@code target.producer.*}). */
    static Map<String, Object> adminOfProducer(TransactionalSinkConfig config) {
        Map<String, Object> configs = new HashMap<>();
        config.producerConfigs().forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(key)) {
                configs.put(key, value);
            }
        });
        configs.put(AdminClientConfig.CLIENT_ID_CONFIG, config.connectorName() + "-" + config.taskId() + "-fencer");
        return configs;
    }

    private static Duration atMost(Duration bound, Duration budget) {
        return bound.compareTo(budget) > 0 ? budget : bound;
    }
}
