package dev.quarantine.connect.rest.discovery;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.rest.http.LogText;

/**
 * The most partitions among the topics a subscription reads now: the number of tasks of the aggregation over them,
 * which Kafka Streams fixes into the partition count of its changelog topics when it creates them. Once the widest
 * topic matched by {@code topics.regex} is deleted, a wider one appears, or a topic gains partitions, that count no
 * longer fits and every stream thread fails on it ("Existing internal topic ... has invalid partitions") and is
 * replaced, for good: so the width is part of what a run reads ({@link MonitoredTopics#fingerprint}), and a new width
 * starts a new aggregation, rebuilt from the dead-letter topics. One list and one describe call per discovery round,
 * with the admin settings the aggregation's Kafka Streams uses (so it sees the topics the aggregation sees). When the
 * cluster does not answer, the width found last for the same subscription is kept (WARN once), never 0: the other
 * discoveries go on, and the run is not moved for want of an answer.
 */
public final class SubscriptionWidth implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionWidth.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Supplier<Admin> admins;
    private Admin admin;
    private String lastSubscription;
    private int lastWidth;
    private String lastProblem;

    /** @param admins creates the admin client at the first round, closed with this */
    public SubscriptionWidth(Supplier<Admin> admins) {
        this.admins = admins;
    }

    /** {@code topics} with the most partitions among the topics they name or match now (0 when none exists). */
    public synchronized MonitoredTopics of(MonitoredTopics topics) {
        String subscription = topics.subscription().pattern();
        try {
            int width = describe(topics).orElse(0);
            lastSubscription = subscription;
            lastWidth = width;
            lastProblem = null;
            return topics.withWidth(width);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return topics.withWidth(subscription.equals(lastSubscription) ? lastWidth : 0);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            String problem = String.valueOf(e instanceof ExecutionException ? e.getCause() : e);
            if (!problem.equals(lastProblem)) {
                log.warn("Dead-letter monitor: could not describe the dead-letter topics' partitions ({}); keeping"
                        + " the width found before", LogText.escape(problem));
                lastProblem = problem;
            }
            return topics.withWidth(subscription.equals(lastSubscription) ? lastWidth : 0);
        }
    }

    private OptionalInt describe(MonitoredTopics topics)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (admin == null) {
            admin = admins.get();
        }
        List<String> read = admin.listTopics().names().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).stream()
                .filter(topics::matches).sorted().toList();
        if (read.isEmpty()) {
            return OptionalInt.empty();
        }
        int width = 0;
        for (Map.Entry<String, KafkaFuture<TopicDescription>> described
                : admin.describeTopics(read).topicNameValues().entrySet()) {
            try {
                width = Math.max(width, described.getValue().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                        .partitions().size());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)) {
                    throw e;
                } // deleted between the list and the describe: not read any more
            }
        }
        return OptionalInt.of(width);
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.close(TIMEOUT);
            admin = null;
        }
    }
}
