package dev.quarantine.connect.sink.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsResult;
import org.apache.kafka.clients.admin.DescribeTopicsResult;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Test;

/**
 * Which cluster {@link SourceTopics} says did not answer: the source cluster named by
 * consumer.override.bootstrap.servers, or the target cluster when it is asked in its place (the source not named).
 * The admin is scripted: every call it answers fails as a cluster that does not answer does.
 */
class SourceTopicsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Test
    void namesTheSourceClusterAndWhatWasAskedWhenTheNamedSourceClusterDoesNotAnswer() {
        SourceTopics topics = new SourceTopics(() -> failing(new TimeoutException("Timed out waiting for a node")),
                "earliest", TIMEOUT);

        assertThatThrownBy(() -> topics.ids(List.of("orders")))
                .isInstanceOfSatisfying(SourceTopics.Unanswered.class, e -> assertThat(e.cluster())
                        .isEqualTo("the source cluster (consumer.override.bootstrap.servers)"))
                .hasMessage("The source cluster (consumer.override.bootstrap.servers) did not answer describing"
                        + " source topic orders: Timed out waiting for a node");
    }

    @Test
    void namesTheTargetClusterWhenItIsAskedInPlaceOfAnUnnamedSourceCluster() {
        SourceTopics topics = new SourceTopics(() -> failing(new CoordinatorNotAvailableException("loading")),
                "earliest", TIMEOUT, Optional.of("connect-orders-copy"));

        assertThatThrownBy(() -> topics.ids(List.of("orders")))
                .isInstanceOfSatisfying(SourceTopics.Unanswered.class, e -> assertThat(e.cluster())
                        .isEqualTo("the target cluster (asked for the source topics, as"
                                + " consumer.override.bootstrap.servers is not set)"))
                .hasMessageContaining("did not answer describing consumer group connect-orders-copy: loading");
    }

    @Test
    void namesWhatWasAskedWhenTheAnswerDoesNotComeWithinItsTimeout() {
        SourceTopics topics = new SourceTopics(() -> neverAnswering(), "earliest", Duration.ofMillis(50));

        assertThatThrownBy(() -> topics.ids(List.of("orders")))
                .isInstanceOf(SourceTopics.Unanswered.class)
                .hasMessage("The source cluster (consumer.override.bootstrap.servers) did not answer describing"
                        + " source topic orders within 50 ms");
    }

    /** An admin whose describe calls fail with {@code error}. */
    private static Admin failing(RuntimeException error) {
        return admin(() -> {
            KafkaFutureImpl<Object> future = new KafkaFutureImpl<>();
            future.completeExceptionally(error);
            return future;
        });
    }

    /** An admin whose describe calls never complete. */
    private static Admin neverAnswering() {
        return admin(KafkaFutureImpl::new);
    }

    private interface Futures {
        KafkaFutureImpl<Object> next();
    }

    @SuppressWarnings("unchecked")
    private static Admin admin(Futures futures) {
        return (Admin) Proxy.newProxyInstance(SourceTopicsTest.class.getClassLoader(), new Class<?>[] {Admin.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "describeTopics" -> new DescribeTopicsResult(null, Map.of((String) ((Collection<?>) args[0])
                            .iterator().next(), (KafkaFuture<TopicDescription>) (KafkaFuture<?>) futures.next())) { };
                    case "describeConsumerGroups" -> new DescribeConsumerGroupsResult(Map.of((String) ((Collection<?>)
                            args[0]).iterator().next(), (KafkaFuture<ConsumerGroupDescription>) (KafkaFuture<?>)
                            futures.next()));
                    case "close" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
