package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
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
 * <p>A target topic's id comes with its first describe ({@link TargetTopics}); every id is described again in the
 * background once older than {@link #RECHECK}, so a topic created again under a running task is known within about
 * that long. A line written meanwhile names the old id and is checked as gone with its topic: nothing is redone there.
 * A topic not described yet has no id, and its lines are checked by their offsets alone, as lines of a writer before
 * this one are.
 */
public final class TopicIds {

    private static final Logger log = LoggerFactory.getLogger(TopicIds.class);
    static final Duration RECHECK = Duration.ofSeconds(10);

    /** No ids: every line is checked by its offsets alone. */
    public static final TopicIds NONE = new TopicIds(() -> {
        throw new IllegalStateException("no admin client");
    }, List.of());

    private record Known(Uuid id, long describedNanos) {
    }

    private final Supplier<Admin> admin;
    private final Set<String> alwaysWritten;
    private final long recheckNanos;
    private final Map<String, Known> known = new ConcurrentHashMap<>();
    private final Set<String> describing = ConcurrentHashMap.newKeySet();

    /**
     * @param admin         the target cluster's admin client, not closed here
     * @param alwaysWritten topics described with any others (the dead-letter topic)
     */
    public TopicIds(Supplier<Admin> admin, Collection<String> alwaysWritten) {
        this(admin, alwaysWritten, RECHECK);
    }

    TopicIds(Supplier<Admin> admin, Collection<String> alwaysWritten, Duration recheck) {
        this.admin = admin;
        this.alwaysWritten = Set.copyOf(alwaysWritten);
        this.recheckNanos = recheck.toNanos();
    }

    /** The id of {@code topic} as last described; empty when it was not (yet), or was missing. */
    public Optional<Uuid> of(String topic) {
        Known id = known.get(topic);
        return id == null ? Optional.empty() : Optional.of(id.id());
    }

    /** Keeps {@code id} as {@code topic}'s, described just now. */
    void described(String topic, Uuid id) {
        if (this == NONE) {
            return;
        }
        known.put(topic, new Known(id, System.nanoTime()));
    }

    /**
     * Describes, in the background, those of {@code topics} and of the topics always written whose id is unknown or
     * older than {@link #RECHECK} and not being described already; never waits for the answer.
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
                if ((id == null || now - id.describedNanos() >= recheckNanos) && describing.add(topic)) {
                    due.add(topic);
                }
            }
        }
        if (due.isEmpty()) {
            return;
        }
        try {
            admin.get().describeTopics(due).topicNameValues().forEach((topic, future) ->
                    future.whenComplete((description, failure) -> {
                        Throwable error = failure instanceof CompletionException && failure.getCause() != null
                                ? failure.getCause() : failure;
                        if (error == null) {
                            described(topic, description.topicId());
                        } else if (error instanceof UnknownTopicOrPartitionException) {
                            known.remove(topic);
                        } else {
                            log.debug("Could not describe topic {} for its id; described again later", topic, error);
                        }
                        describing.remove(topic);
                    }));
        } catch (RuntimeException e) {
            describing.removeAll(due);
            log.debug("Could not describe topics {} for their ids; described again later", due, e);
        }
    }
}
