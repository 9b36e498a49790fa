package dev.quarantine.connect.sink.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.DescribeTransactionsResult;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.txn.SendErrors;

/**
 * The calls {@link HangingTransactions} makes to the target cluster's admin client: each waits at most one timeout,
 * and each failure is classified once, naming what it asked about (an id, the task, or how many ids): transient (and
 * a timeout) as a {@link RetriableException} (the batch is delivered again), anything else as a
 * {@link ConnectException}, which names the ACLs to check when the cluster refused the call.
 */
final class TransactionAdmin {

    /** Its lines are those of the check it serves, as configured for it. */
    private static final Logger log = LoggerFactory.getLogger(HangingTransactions.class);

    private static final String CLIENT_VERSION_RESOURCE = "kafka/kafka-version.properties";

    /** At most this many transactional ids per describeTransactions call. */
    static final int IDS_PER_DESCRIBE = 500;

    private final ClusterAdmins admins;
    private final Duration timeout;
    private volatile Boolean epochBumpedAtEnd;

    TransactionAdmin(ClusterAdmins admins, Duration timeout) {
        this.admins = admins;
        this.timeout = timeout;
    }

    /** The transaction of {@code transactionalId} as its coordinator describes it now. */
    TransactionDescription describe(String transactionalId) {
        return await(admins.target().describeTransactions(List.of(transactionalId)).description(transactionalId),
                "describe transactional id " + transactionalId, transactionalId);
    }

    /**
     * The descriptions of {@code ids}, asked in calls of at most {@value #IDS_PER_DESCRIBE} ids, and waited for
     * together within one timeout: each is answered, one way or the other, or not done (read with {@link #answer}).
     */
    Map<String, KafkaFuture<TransactionDescription>> describeTogether(Collection<String> transactionalIds) {
        Map<String, KafkaFuture<TransactionDescription>> described = new LinkedHashMap<>();
        List<String> ids = List.copyOf(transactionalIds);
        for (int from = 0; from < ids.size(); from += IDS_PER_DESCRIBE) {
            List<String> call = ids.subList(from, Math.min(ids.size(), from + IDS_PER_DESCRIBE));
            DescribeTransactionsResult result = admins.target().describeTransactions(call);
            call.forEach(id -> described.put(id, result.description(id)));
        }
        settle(described);
        return described;
    }

    /** Waits until every description has an answer, whichever, within the timeout. */
    private void settle(Map<String, KafkaFuture<TransactionDescription>> described) {
        CompletableFuture<?>[] answers = described.values().stream()
                .map(f -> f.toCompletionStage().toCompletableFuture().exceptionally(e -> null))
                .toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(answers).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            log.info("{} of {} transactional ids described together had no answer within {} ms: they are opened"
                    + " later, the others now", described.values().stream().filter(f -> !f.isDone()).count(),
                    described.size(), timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while describing the last transactions of "
                    + described.size() + " transactional ids " + described.keySet().stream().limit(3).toList()
                    + (described.size() > 3 ? " and more" : ""), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Answers that failed were turned into none", e);
        }
    }

    /**
     * The id's last transaction as {@link #describeTogether} described it, empty for an id never used.
     *
     * @throws RetriableException when its answer did not come within the timeout or failed transiently
     * @throws ConnectException   when it failed for good
     */
    Optional<TransactionDescription> answer(String transactionalId, KafkaFuture<TransactionDescription> description) {
        if (!description.isDone()) {
            throw new RetriableException("Could not describe transactional id " + transactionalId + " within "
                    + timeout.toMillis() + " ms, to find transactions left hanging by an earlier producer of it;"
                    + " its partition is opened later");
        }
        try {
            return Optional.of(await(description, "describe transactional id " + transactionalId, transactionalId));
        } catch (ConnectException e) {
            if (e.getCause() instanceof TransactionalIdNotFoundException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** The partitions of those {@code topics} that exist (a missing one holds no transaction). */
    List<TopicPartition> partitions(Collection<String> topics, String transactionalId) {
        List<TopicPartition> partitions = new ArrayList<>();
        admins.target().describeTopics(topics).topicNameValues().forEach((topic, described) -> {
            try {
                await(described, "describe topic " + topic, transactionalId).partitions()
                        .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            } catch (ConnectException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
        });
        return partitions;
    }

    /** The producers of {@code partition}, asked for {@code opened} (an id, or the ids opened together). */
    PartitionProducerState producers(TopicPartition partition, String opened) {
        return await(admins.target().describeProducers(List.of(partition)).partitionResult(partition),
                "describe the producers of " + partition, opened);
    }

    /** The producers of {@code partitions}, those of {@code topics}, asked for {@code transactionalId}. */
    Map<TopicPartition, PartitionProducerState> producers(List<TopicPartition> partitions, Collection<String> topics,
                                                          String transactionalId) {
        return await(admins.target().describeProducers(partitions).all(), "describe the producers of " + topics,
                transactionalId);
    }

    /** Aborts the open transaction of {@code spec}, one of {@code transactionalId}'s. */
    void abort(AbortTransactionSpec spec, String transactionalId) {
        await(admins.target().abortTransaction(spec).all(), "abort the hanging transaction " + spec, transactionalId);
    }

    /**
     * Whether our producers end their transactions with an epoch bump (KIP-890's transaction version 2): the
     * cluster's finalized {@code transaction.version} is 2 or more and the client (the worker's kafka-clients) is 4.0
     * or newer, asked once.
     */
    boolean epochBumpedAtEnd() {
        Boolean known = epochBumpedAtEnd;
        if (known == null) {
            FeatureMetadata features = await(admins.target().describeFeatures().featureMetadata(),
                    "describe the cluster's finalized features", "the task");
            FinalizedVersionRange version = features.finalizedFeatures().get(HangingTransactions.TRANSACTION_VERSION);
            known = endsWithEpochBump(version == null ? 0 : version.maxVersionLevel(), clientVersion(admins.target()));
            epochBumpedAtEnd = known;
        }
        return known;
    }

    /**
     * The version of the kafka-clients {@code admin} runs on (the worker's, which our producers share), from the
     * {@code kafka/kafka-version.properties} resource of that kafka-clients jar: what its own app-info reads, on 3.9
     * through 4.4. Not from the {@code app-info} metrics: a client whose {@code client.id} another client of the JVM
     * holds already (a user's {@code target.admin.client.id} shared by a task's admins) registers none. "unknown" when
     * the resource cannot be read, which counts as a client older than 4.0.
     */
    static String clientVersion(Admin admin) {
        try (InputStream in = admin.getClass().getClassLoader().getResourceAsStream(CLIENT_VERSION_RESOURCE)) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown").trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /**
     * Whether a producer of client {@code clientVersion} ends its transactions with an epoch bump on a cluster of
     * {@code transactionVersion}: only a 4.0 or newer client uses version 2 (3.9's has no KIP-890 client side); a
     * version that cannot be read counts as older, whose aborts {@link LastTransaction} reads the wider way.
     */
    static boolean endsWithEpochBump(int transactionVersion, String clientVersion) {
        if (transactionVersion < 2) {
            return false;
        }
        int dot = clientVersion.indexOf('.');
        String major = dot < 0 ? clientVersion : clientVersion.substring(0, dot);
        try {
            return Integer.parseInt(major) >= 4;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Waits {@link #timeout}; no answer in time is transient, as a transient failure is. */
    private <T> T await(KafkaFuture<T> future, String what, String transactionalId) {
        try {
            return AdminWait.await(future, timeout, what);
        } catch (ExecutionException e) {
            throw failure(what, transactionalId, e.getCause());
        }
    }

    private static ConnectException failure(String what, String transactionalId, Throwable cause) {
        if (SendErrors.isTransient(cause) && !(cause instanceof UnknownTopicOrPartitionException)
                && !(cause instanceof TransactionalIdNotFoundException)) {
            return new RetriableException("Could not " + what + " (" + cause + "), to find transactions left"
                    + " hanging by an earlier producer of " + transactionalId + "; the batch is delivered again",
                    cause);
        }
        return new ConnectException("Could not " + what + ": " + cause + ". Before a partition's producer"
                + " writes again after an abort, the task aborts what the abort left open (markers skipped by a"
                + " restarting broker)" + (cause instanceof AuthorizationException ? "; check the ACLs of "
                + TransactionalSinkConfig.TARGET_ADMIN_PREFIX + "*: Read on the target, dead-letter and progress"
                + " topics, Describe on the transactional ids, and Alter on the cluster to abort one" : ""), cause);
    }
}
