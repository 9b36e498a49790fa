package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

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

    /** Ids over {@link #admin()}, described again once older than {@code recheck}; first answers waited 5 s. */
    private TopicIds scripted(List<String> alwaysWritten, Duration recheck) {
        Admin admin = admin();
        return new TopicIds(() -> admin, alwaysWritten, recheck, Duration.ofSeconds(5));
    }

    @Test
    void describesTheTopicsWrittenAndTheAlwaysWrittenOnesInOneCallThenNotWhileTheirIdsAreFresh() {
        Uuid copy = Uuid.randomUuid();
        Uuid dlq = Uuid.randomUuid();
        topics.putAll(Map.of("copy", copy, "dlq", dlq));
        TopicIds ids = scripted(List.of("dlq"), Duration.ofHours(1));

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
        TopicIds ids = scripted(List.of(), Duration.ZERO);
        ids.described("copy", old); // as TargetTopics keeps it from its first describe

        topics.put("copy", again);
        ids.refresh(List.of("copy"));

        assertThat(ids.of("copy")).contains(again);
    }

    @Test
    void aTopicDescribedMissingOrNotDescribedKeepsItsIdUntilItIsDescribedAgain() {
        Uuid copy = Uuid.randomUuid();
        Uuid dlq = Uuid.randomUuid();
        TopicIds ids = scripted(List.of(), Duration.ZERO);
        ids.described("copy", copy);
        ids.described("dlq", dlq);
        fails.put("dlq", new TimeoutException("no answer"));

        ids.refresh(List.of("copy", "dlq")); // copy deleted, dlq's describe timed out

        assertThat(ids.of("copy")).as("deleted: a transaction whose records landed in it still names it")
                .contains(copy);
        assertThat(ids.of("dlq")).contains(dlq);
        fails.clear();
        Uuid copyAgain = Uuid.randomUuid();
        Uuid dlqAgain = Uuid.randomUuid();
        topics.putAll(Map.of("copy", copyAgain, "dlq", dlqAgain));
        ids.refresh(List.of("copy", "dlq"));
        assertThat(ids.of("copy")).as("created again: described at the next refresh").contains(copyAgain);
        assertThat(ids.of("dlq")).contains(dlqAgain);
    }

    @Test
    void aTopicNeverFoundHasNoIdAndIsNotDescribedAgainBeforeTheRecheck() {
        TopicIds ids = scripted(List.of("dlq"), Duration.ofHours(1));

        ids.refresh(List.of());
        ids.refresh(List.of());

        assertThat(ids.of("dlq")).isEmpty();
        assertThat(described).as("one describe, not one per put").hasSize(1);
    }

    @Test
    void theFirstRefreshWaitsForTheIdOfATopicNeverDescribedAndLaterOnesDoNot() throws Exception {
        Uuid dlq = Uuid.randomUuid();
        List<KafkaFutureImpl<TopicDescription>> asked = new CopyOnWriteArrayList<>();
        Admin admin = (Admin) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Admin.class},
                (proxy, method, args) -> {
                    KafkaFutureImpl<TopicDescription> answer = new KafkaFutureImpl<>();
                    asked.add(answer);
                    return new DescribeTopicsResult(null, Map.of("dlq", answer)) { };
                });
        TopicIds ids = new TopicIds(() -> admin, List.of("dlq"), Duration.ZERO, Duration.ofSeconds(30));
        Thread answering = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            asked.get(0).complete(new TopicDescription("dlq", false, List.of(), null, dlq));
        });
        answering.start();

        ids.refresh(List.of()); // the first put: its dead letters' lines name the topic's id
        assertThat(ids.of("dlq")).contains(dlq);
        answering.join();

        ids.refresh(List.of()); // due again (recheck 0), answered never: not waited for
        assertThat(asked).hasSize(2);
        assertThat(ids.of("dlq")).contains(dlq);
    }

    @Test
    void anAnswerToAnEarlierDescribeDoesNotReplaceALaterOnesId() {
        Uuid old = Uuid.randomUuid();
        Uuid again = Uuid.randomUuid();
        KafkaFutureImpl<TopicDescription> late = new KafkaFutureImpl<>();
        Admin admin = (Admin) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Admin.class},
                (proxy, method, args) -> new DescribeTopicsResult(null, Map.of("copy", late)) { });
        TopicIds ids = new TopicIds(() -> admin, List.of(), Duration.ZERO, Duration.ofSeconds(5));
        ids.described("copy", old);
        ids.refresh(List.of("copy")); // its answer comes late

        ids.described("copy", again); // TargetTopics' own describe, issued later
        late.complete(new TopicDescription("copy", false, List.of(), null, old));

        assertThat(ids.of("copy")).contains(again);
    }

    @Test
    void noneKeepsNothingAndNeverDescribes() {
        TopicIds.NONE.described("copy", Uuid.randomUuid());
        TopicIds.NONE.refresh(List.of("copy"));

        assertThat(TopicIds.NONE.of("copy")).isEmpty();
    }
}
