package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.NotControllerException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.config.PartitionMapping;
import dev.quarantine.connect.sink.config.TargetTopicSettings;
import dev.quarantine.connect.sink.config.TopicFormat;
import dev.quarantine.connect.sink.progress.SourceTopics;

/**
 * {@link TargetTopics} against a scripted admin client: which topics it describes and creates, in how many calls, and
 * what a failed call turns into. The real cluster's answers are in TransactionalKafkaSinkTaskIT and TopicsChangedIT.
 */
class TargetTopicsTest {

    /** An admin client answering describe and create from {@link #topics}; every call it takes is recorded. */
    private static final class ScriptedAdmin {
        final Map<String, Integer> topics = new HashMap<>();
        final Map<String, RuntimeException> describeFails = new HashMap<>();
        RuntimeException createFails;
        final List<List<String>> described = new ArrayList<>();
        final List<NewTopic> created = new ArrayList<>();

        Admin admin() {
            return (Admin) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Admin.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "describeTopics" -> describe(castTopics(args[0]));
                        case "createTopics" -> create(castNewTopics(args[0]));
                        case "close" -> null;
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }

        private DescribeTopicsResult describe(Collection<String> names) {
            described.add(List.copyOf(names));
            Map<String, KafkaFuture<TopicDescription>> futures = new HashMap<>();
            for (String name : names) {
                if (describeFails.containsKey(name)) {
                    futures.put(name, failed(describeFails.get(name)));
                } else if (topics.containsKey(name)) {
                    futures.put(name, KafkaFuture.completedFuture(description(name, topics.get(name))));
                } else {
                    futures.put(name, failed(new UnknownTopicOrPartitionException(name)));
                }
            }
            return new DescribeTopicsResult(null, futures) { };
        }

        private CreateTopicsResult create(Collection<NewTopic> newTopics) {
            Map<String, KafkaFuture<CreateTopicsResult.TopicMetadataAndConfig>> futures = new HashMap<>();
            for (NewTopic topic : newTopics) {
                created.add(topic);
                if (createFails != null) {
                    if (createFails instanceof TopicExistsException) {
                        topics.put(topic.name(), 2); // somebody else's, created meanwhile
                    }
                    futures.put(topic.name(), failed(createFails));
                    continue;
                }
                topics.put(topic.name(), topic.numPartitions());
                futures.put(topic.name(), KafkaFuture.completedFuture(null));
            }
            return new CreateTopicsResult(futures) { };
        }

        @SuppressWarnings("unchecked")
        private static Collection<String> castTopics(Object topics) {
            return (Collection<String>) topics;
        }

        @SuppressWarnings("unchecked")
        private static Collection<NewTopic> castNewTopics(Object topics) {
            return (Collection<NewTopic>) topics;
        }
    }

    private static <T> KafkaFuture<T> failed(RuntimeException cause) {
        KafkaFutureImpl<T> future = new KafkaFutureImpl<>();
        future.completeExceptionally(cause);
        return future;
    }

    private static TopicDescription description(String name, int partitions) {
        Node node = new Node(1, "127.0.0.1", 9092);
        return new TopicDescription(name, false, IntStream.range(0, partitions)
                .mapToObj(p -> new TopicPartitionInfo(p, node, List.of(node), List.of(node))).toList());
    }

    private static SinkRecord record(String topic, int partition) {
        return new SinkRecord(topic, partition, null, null, null, null, 0L);
    }

    private final ScriptedAdmin target = new ScriptedAdmin();

    private TargetTopics targetTopics(boolean create, PartitionMapping mapping) {
        TargetTopicSettings settings = new TargetTopicSettings(create, Optional.empty(), Optional.empty(), Map.of(),
                mapping);
        Admin admin = target.admin();
        return new TargetTopics(new TopicFormat("copy.${topic}"), settings,
                new ClusterAdmins(Map.of("bootstrap.servers", "target"), Map.of("bootstrap.servers", "source"),
                        configs -> configs.get("bootstrap.servers").equals("target") ? admin : sourceAdmin()),
                Duration.ofSeconds(5));
    }

    private final ScriptedAdmin source = new ScriptedAdmin();

    private Admin sourceAdmin() {
        return source.admin();
    }

    @Test
    void describesEveryUnknownTargetTopicOfABatchInOneCallAndKnownOnesNever() {
        target.topics.putAll(Map.of("copy.a", 3, "copy.b", 5, "copy.c", 1));
        TargetTopics topics = targetTopics(false, PartitionMapping.HASH);

        topics.ensure(List.of(record("a", 0), record("b", 0), record("a", 1), record("c", 0)));
        topics.ensure(List.of(record("b", 4), record("a", 2)));

        assertThat(target.described).containsExactly(List.of("copy.a", "copy.b", "copy.c"));
        assertThat(target.created).isEmpty();
    }

    @Test
    void createsAMissingTargetTopicWithItsSourceTopicsPartitionCountThenKnowsIt() {
        source.topics.put("a", 6);
        TargetTopics topics = targetTopics(true, PartitionMapping.HASH);

        topics.ensure(List.of(record("a", 0)));

        assertThat(target.created).singleElement().satisfies(topic -> {
            assertThat(topic.name()).isEqualTo("copy.a");
            assertThat(topic.numPartitions()).isEqualTo(6);
        });
        assertThat(source.described).containsExactly(List.of("a"));
        assertThat(target.described).containsExactly(List.of("copy.a"), List.of("copy.a"));
        assertThat(topics.partition("copy.a", 7, null, new HashMap<>())).isEqualTo(1);
    }

    @Test
    void aSourceClusterThatDoesNotAnswerForThePartitionCountIsNamedAndNothingIsCreated() {
        source.describeFails.put("a", new TimeoutException("Timed out waiting for a node assignment"));
        TargetTopics topics = targetTopics(true, PartitionMapping.HASH);

        assertThatThrownBy(() -> topics.ensure(List.of(record("a", 0))))
                .isInstanceOf(RetriableException.class)
                .hasMessageContaining("partition count of source topic a").hasMessageContaining("copy.a")
                .cause().isInstanceOfSatisfying(SourceTopics.Unanswered.class, e -> assertThat(e.cluster())
                        .isEqualTo("the source cluster (consumer.override.bootstrap.servers)"));
        assertThat(target.created).isEmpty();
    }

    @Test
    void aSourceClusterThatRefusesTheDescribeNamesTheSourceAdminsSettingsNotTheTargetAdmins() {
        source.describeFails.put("a", new TopicAuthorizationException("denied"));
        TargetTopics topics = targetTopics(true, PartitionMapping.HASH);

        assertThatThrownBy(() -> topics.ensure(List.of(record("a", 0))))
                .isInstanceOf(ConnectException.class)
                .isNotInstanceOf(RetriableException.class)
                .hasMessageContaining("Could not describe source topic a on the source cluster")
                .hasMessageContaining("consumer.override.* settings, else target.admin.*")
                .hasMessageContaining("target.topic.creation.partitions");
        assertThat(target.created).isEmpty();
    }

    @Test
    void aTopicCreatedMeanwhileBySomeoneElseIsDescribedAndUsed() {
        source.topics.put("a", 2);
        target.createFails = new TopicExistsException("copy.a");
        TargetTopics topics = targetTopics(true, PartitionMapping.HASH);

        topics.ensure(List.of(record("a", 0)));

        assertThat(target.described).hasSize(2);
        assertThat(topics.partition("copy.a", 5, null, new HashMap<>())).as("by the 2 partitions it was created with")
                .isEqualTo(1);
    }

    @Test
    void aMissingTopicThatIsNotToBeCreatedIsNotDescribedAgainAtOnceAndRecordsKeepTheirPartition() {
        TargetTopics topics = targetTopics(false, PartitionMapping.HASH);

        topics.ensure(List.of(record("a", 0)));
        topics.ensure(List.of(record("a", 9)));

        assertThat(target.described).containsExactly(List.of("copy.a"));
        assertThat(target.created).isEmpty();
        assertThat(topics.partition("copy.a", 9, null, new HashMap<>())).isEqualTo(9);
    }

    @Test
    void aRetriableDescribeFailureHandsTheBatchBackNamingTheTopic() {
        target.describeFails.put("copy.a", new NotControllerException("moving"));
        TargetTopics topics = targetTopics(false, PartitionMapping.HASH);

        assertThatThrownBy(() -> topics.ensure(List.of(record("a", 0))))
                .isInstanceOf(RetriableException.class)
                .hasMessageContaining("describe topic copy.a");
    }

    @Test
    void aDescribeRefusedByTheTargetFailsNamingTheTopicAndTheAdminSettings() {
        target.describeFails.put("copy.a", new TopicAuthorizationException("denied"));
        TargetTopics topics = targetTopics(false, PartitionMapping.HASH);

        assertThatThrownBy(() -> topics.ensure(List.of(record("a", 0))))
                .isInstanceOf(ConnectException.class)
                .isNotInstanceOf(RetriableException.class)
                .hasMessageContaining("copy.a")
                .hasMessageContaining("target.admin.");
    }

    @Test
    void aCreateRefusedByTheTargetFailsNamingTheTopicAndTheCreationSettings() {
        source.topics.put("a", 2);
        target.createFails = new TopicAuthorizationException("denied");
        TargetTopics topics = targetTopics(true, PartitionMapping.HASH);

        assertThatThrownBy(() -> topics.ensure(List.of(record("a", 0))))
                .isInstanceOf(ConnectException.class)
                .isNotInstanceOf(RetriableException.class)
                .hasMessageContaining("Could not create the target topic copy.a")
                .hasMessageContaining("target.topic.creation.");
    }

    @Test
    void aPartitionTheTargetLacksIsMappedByTheCountKeptForTheSourcePartition() {
        target.topics.put("copy.a", 4);
        TargetTopics hashing = targetTopics(false, PartitionMapping.HASH);
        hashing.ensure(List.of(record("a", 0)));

        assertThat(hashing.partition("copy.a", 3, null, new HashMap<>())).isEqualTo(3);
        assertThat(hashing.partition("copy.a", 6, null, new HashMap<>())).isEqualTo(2);
        Map<String, Integer> mapped = new HashMap<>(Map.of("copy.a", 3));
        assertThat(hashing.partition("copy.a", 4, null, mapped)).as("the smaller count kept for the partition")
                .isEqualTo(1);
        assertThat(mapped).containsEntry("copy.a", 3);

        TargetTopics keeping = targetTopics(false, PartitionMapping.KEEP);
        keeping.ensure(List.of(record("a", 0)));
        assertThat(keeping.partition("copy.a", 6, null, new HashMap<>())).isEqualTo(6);
    }
}
