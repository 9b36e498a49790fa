package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ids of the topics a task writes (its target topics and its dead-letter topic) as the target cluster describes
 * them, for the {@code written} lines of its progress records (rule V): the check then tells a line of a topic deleted
 * and created again under the same name from the topic there now, instead of reading the new topic at the old one's
 * offsets (where another writer's aborted transaction would read as this one lost).
 *
 * <p>A target topic's id comes with its first describe ({@link TargetTopics}); the first refresh that meets a topic
 * not described yet (the dead-letter topic) waits up to {@link #FIRST_WAIT} for its id; every id is described again in
 * the background once older than {@link #RECHECK}, so a topic created again under a running task is known within about
 * that long. An id is kept when its topic is described missing or the describe fails: a transaction whose records
 * landed in the deleted topic still names it. A transaction takes each topic's id at its first send there
 * ({@code TaskTransaction}), so a line names the topic its records went to, or, when the topic was created again
 * within the window, the older one: checked as gone (nothing redone), never read at the new topic's offsets. A topic
 * with no id at all has lines checked by their offsets alone, as lines of a writer before this one are.
 */
public final class TopicIds {

    private static final Logger log = LoggerFactory.getLogger(TopicIds.class);
    static final Duration RECHECK = Duration.ofSeconds(10);
    static final Duration FIRST_WAIT = Duration.ofSeconds(10);

    /** No ids: every line is checked by its offsets alone. */
    public static final TopicIds NONE = new TopicIds(() -> {
        throw new IllegalStateException("no admin client");
    }, List.of());

    /** The id last described (empty: never found), and when the describe that answered or failed was issued. */
    private record Known(Optional<Uuid> id, long issuedNanos) {
    }

    private final Supplier<Admin> admin;
    private final Set<String> alwaysWritten;
    private final long recheckNanos;
    private final Duration firstWait;
    private final Map<String, Known> known = new ConcurrentHashMap<>();
    private final Set<String> describing = ConcurrentHashMap.newKeySet();

    /**
     * @param admin         the target cluster's admin client, not closed here
     * @param alwaysWritten topics described with any others (the dead-letter topic)
     */
    public TopicIds(Supplier<Admin> admin, Collection<String> alwaysWritten) {
        this(admin, alwaysWritten, RECHECK, FIRST_WAIT);
    }

    TopicIds(Supplier<Admin> admin, Collection<String> alwaysWritten, Duration recheck, Duration firstWait) {
        this.admin = admin;
        this.alwaysWritten = Set.copyOf(alwaysWritten);
        this.recheckNanos = recheck.toNanos();
        this.firstWait = firstWait;
    }

    /** The id of {@code topic} as last described; empty when it never was (yet). */
    public Optional<Uuid> of(String topic) {
        Known id = known.get(topic);
        return id == null ? Optional.empty() : id.id();
    }

    /** Keeps {@code id} as {@code topic}'s, described just now. */
    void described(String topic, Uuid id) {
        if (this != NONE) {
            keep(topic, Optional.of(id), System.nanoTime());
        }
    }

    /**
     * Describes those of {@code topics} and of the topics always written whose id is older than {@link #RECHECK}
     * (or was never described) and not being described already: in the background, but for topics never described,
     * whose answer is waited for up to {@link #FIRST_WAIT} (a refused or late answer leaves them without an id).
     */
    public void refresh(Collection<String> topics) {
        if (this == NONE) {
            return;
        }
        long now = System.nanoTime();
        Set<String> due = new LinkedHashSet<>();
        for (Collection<String> some : List.of(topics, alwaysWritten)) {
            for (String topic : some) {
                Known id = known.get(topic);
                if ((id == null || now - id.issuedNanos() >= recheckNanos) && describing.add(topic)) {
                    due.add(topic);
                }
            }
        }
        if (due.isEmpty()) {
            return;
        }
        List<KafkaFuture<Void>> first = new ArrayList<>();
        try {
            admin.get().describeTopics(due).topicNameValues().forEach((topic, future) -> {
                boolean neverDescribed = !known.containsKey(topic);
                KafkaFuture<Void> answered = future.whenComplete((description, failure) -> {
                    try {
                        answer(topic, now, description, failure);
                    } finally {
                        describing.remove(topic);
                    }
                }).thenApply(description -> null);
                if (neverDescribed) {
                    first.add(answered);
                }
            });
        } catch (RuntimeException e) {
            describing.removeAll(due);
            log.debug("Could not describe topics {} for their ids; described again later", due, e);
            return;
        }
        if (!first.isEmpty()) {
            try {
                KafkaFuture.allOf(first.toArray(KafkaFuture[]::new)).get(firstWait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                log.debug("Topics {} not described for their ids within {}; described again later", due, firstWait);
            }
        }
    }

    private void answer(String topic, long issued, TopicDescription description, Throwable failure) {
        Throwable error = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                : failure;
        if (error == null) {
            keep(topic, Optional.of(description.topicId()), issued);
            return;
        }
        // missing or not answered: the id kept stays (records sent before the deletion landed in that topic)
        keep(topic, Optional.empty(), issued);
        if (!(error instanceof UnknownTopicOrPartitionException)) {
            log.debug("Could not describe topic {} for its id; described again later", topic, error);
        }
    }

    /** Keeps what a describe issued at {@code issued} found, unless a later describe's answer is kept already. */
    private void keep(String topic, Optional<Uuid> id, long issued) {
        known.merge(topic, new Known(id, issued), (kept, now) -> now.issuedNanos() - kept.issuedNanos() >= 0
                ? new Known(now.id().or(kept::id), now.issuedNanos()) : kept);
    }
}
