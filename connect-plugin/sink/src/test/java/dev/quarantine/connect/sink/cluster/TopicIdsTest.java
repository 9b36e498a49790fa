package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsResult;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Test;

/**
 * {@link TopicIds} against a scripted admin client that answers at once: which topics it describes, when again, and
 * what it keeps of each answer. TopicsChangedIT has the real cluster's answer and what rule V does with the ids.
 */
class TopicIdsTest {

    private final Map<String, Uuid> topics = new HashMap<>();
    private final Map<String, RuntimeException> fails = new HashMap<>();
    private final List<List<String>> described = new ArrayList<>();

    private Admin admin() {
        return (Admin) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Admin.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("describeTopics")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    @SuppressWarnings("unchecked")
                    Collection<String> names = (Collection<String>) args[0];
                    described.add(List.copyOf(names));
                    Map<String, KafkaFuture<TopicDescription>> futures = new HashMap<>();
                    names.forEach(name -> {
                        KafkaFutureImpl<TopicDescription> future = new KafkaFutureImpl<>();
                        if (fails.containsKey(name)) {
                            future.completeExceptionally(fails.get(name));
                        } else if (topics.containsKey(name)) {
                            future.complete(new TopicDescription(name, false, List.of(), null, topics.get(name)));
                        } else {
                            future.completeExceptionally(new UnknownTopicOrPartitionException(name));
                        }
                        futures.put(name, future);
                    });
                    return new DescribeTopicsResult(null, futures) { };
                });
    }

    @Test
    void describesTheTopicsWrittenAndTheAlwaysWrittenOnesInOneCallThenNotWhileTheirIdsAreFresh() {
        Uuid copy = Uuid.randomUuid();
        Uuid dlq = Uuid.randomUuid();
        topics.putAll(Map.of("copy", copy, "dlq", dlq));
        Admin admin = admin();
        TopicIds ids = new TopicIds(() -> admin, List.of("dlq"), Duration.ofHours(1));

        ids.refresh(List.of("copy"));
        ids.refresh(List.of("copy"));

        assertThat(described).hasSize(1);
        assertThat(described.get(0)).containsExactlyInAnyOrder("copy", "dlq");
        assertThat(ids.of("copy")).contains(copy);
        assertThat(ids.of("dlq")).contains(dlq);
        assertThat(ids.of("other")).isEmpty();
    }

    @Test
    void aTopicCreatedAgainIsKnownByItsNewIdOnceItsIdIsDescribedAgain() {
        Uuid old = Uuid.randomUuid();
        Uuid again = Uuid.randomUuid();
        Admin admin = admin();
        TopicIds ids = new TopicIds(() -> admin, List.of(), Duration.ZERO);
        ids.described("copy", old); // as TargetTopics keeps it from its first describe

        topics.put("copy", again);
        ids.refresh(List.of("copy"));

        assertThat(ids.of("copy")).contains(again);
    }

    @Test
    void aTopicDescribedMissingHasNoIdAndOneThatCouldNotBeDescribedKeepsItsIdUntilItIs() {
        Uuid copy = Uuid.randomUuid();
        Uuid dlq = Uuid.randomUuid();
        Admin admin = admin();
        TopicIds ids = new TopicIds(() -> admin, List.of(), Duration.ZERO);
        ids.described("copy", copy);
        ids.described("dlq", dlq);
        fails.put("dlq", new TimeoutException("no answer"));

        ids.refresh(List.of("copy", "dlq")); // copy deleted, dlq's describe timed out

        assertThat(ids.of("copy")).as("deleted: its lines are checked by their offsets").isEmpty();
        assertThat(ids.of("dlq")).contains(dlq);
        fails.clear();
        Uuid again = Uuid.randomUuid();
        topics.put("dlq", again);
        ids.refresh(List.of("dlq"));
        assertThat(ids.of("dlq")).as("described again at the next refresh").contains(again);
    }

    @Test
    void noneKeepsNothingAndNeverDescribes() {
        TopicIds.NONE.described("copy", Uuid.randomUuid());
        TopicIds.NONE.refresh(List.of("copy"));

        assertThat(TopicIds.NONE.of("copy")).isEmpty();
    }
}
