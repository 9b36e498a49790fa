package dev.quarantine.connect.rest.discovery;

import static dev.quarantine.connect.rest.OtherWritersLetters.byKey;
import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeConfigsResult;
import org.apache.kafka.clients.admin.ForwardingAdmin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.health.ConnectClusterState;
import org.apache.kafka.connect.health.ConnectorHealth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.RealDeadLetterWriters;
import dev.quarantine.replay.letters.DeadLetterFormat;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.connect.rest.InProcessMonitor;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.OtherWritersLetters;
import dev.quarantine.connect.rest.replays.ReplayDestinations;
import dev.quarantine.connect.rest.aggregation.TopicStats;
import dev.quarantine.connect.rest.WorkerSettings;

/**
 * Dead letters the Kafka 4.4 broker itself writes for a share group (KIP-1191): a {@link KafkaShareConsumer} with
 * explicit acknowledgement rejects ten records ({@link AcknowledgeType#REJECT}) of a group whose
 * {@code errors.deadletterqueue.topic.name} names {@code dlq.<topic>}. The monitor's default pattern finds the topic
 * and classifies them (format share-group, original topic/partition/offset, the group), and a replay sends each back
 * to its original topic and partition once, without the {@code __dlq.errors.*} headers. The broker stamps a share
 * group's dead letter with the time it wrote it and keeps neither the failed record's timestamp nor its headers (the
 * records are two days old and carry a trace-id header), so the replay writes the dead letter's time and no header of
 * the record's own (docs/replay.md).
 */
@ExtendWith(LocalKafkaExtension.class)
class ShareGroupDeadLettersIT {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final int LETTERS = 10;
    private static final String GROUP = "payers";
    private static final long TWO_DAYS_AGO = System.currentTimeMillis() - Duration.ofDays(2).toMillis();

    @Test
    void brokerWrittenShareGroupDeadLettersAreClassifiedAndReplayedToTheirOriginalTopicAndPartition(LocalKafka kafka)
            throws Exception {
        String payments = "sharepayments";
        String dlq = "dlq." + payments;
        kafka.createTopic(payments, 2, Map.of());
        kafka.createTopic(dlq, 1, Map.of("errors.deadletterqueue.group.enable", "true"));
        RealDeadLetterWriters.shareGroupDlq(kafka, GROUP, dlq);
        produce(kafka, payments);
        List<ConsumerRecord<byte[], byte[]>> failed = TopicReader.readCommitted(kafka, payments, DEADLINE);
        RealDeadLetterWriters.rejectAll(kafka, GROUP, payments, LETTERS, DEADLINE);

        List<ConsumerRecord<byte[], byte[]>> letters = Await.value("ten dead letters in " + dlq, DEADLINE, () -> {
            List<ConsumerRecord<byte[], byte[]>> now = TopicReader.readCommitted(kafka, dlq, Duration.ofSeconds(10));
            return now.size() >= LETTERS ? now : null;
        });
        assertThat(letters).hasSize(LETTERS).allSatisfy(letter -> {
            assertThat(letter.timestamp()).as("the broker's clock, not the failed record's")
                    .isGreaterThan(byKey(failed, letter.key()).timestamp());
            for (Header header : letter.headers()) {
                assertThat(header.key()).as("the record's own headers are not copied").startsWith("__dlq.errors.");
            }
        });
        Map<String, Object> worker = Map.of("group.id", "connect-cluster", "bootstrap.servers",
                kafka.bootstrapServers(), "rest.advertised.host.name", "127.0.0.1", "rest.advertised.port", "8083");
        assertThat(new MonitorConfig(worker).topicsRegex().orElseThrow().matcher(dlq).matches()).isTrue();
        TopicStats stats = OtherWritersLetters.readEach(letters, failed, DeadLetterFormat.SHARE_GROUP, payments, GROUP);
        assertThat(stats.total()).isEqualTo(LETTERS);
        assertThat(stats.byOriginalTopic()).containsExactly(Map.entry(payments, (long) LETTERS));

        ReplayProgress done = OtherWritersLetters.replayToEnd(kafka, "share-1", dlq, payments);

        assertThat(done.counts().replayed()).isEqualTo(LETTERS);
        List<ConsumerRecord<byte[], byte[]>> replayed = TopicReader.readCommitted(kafka, payments, DEADLINE).stream()
                .filter(r -> failed.stream().noneMatch(f -> f.partition() == r.partition()
                        && f.offset() == r.offset())).toList();
        assertThat(replayed).hasSize(LETTERS);
        assertThat(replayed.stream().map(r -> text(r.key())).collect(Collectors.toSet())).hasSize(LETTERS);
        for (ConsumerRecord<byte[], byte[]> back : replayed) {
            ConsumerRecord<byte[], byte[]> original = byKey(failed, back.key());
            ConsumerRecord<byte[], byte[]> letter = byKey(letters, back.key());
            assertThat(back.partition()).isEqualTo(original.partition());
            assertThat(back.value()).isEqualTo(original.value());
            assertThat(back.timestamp()).as("the dead letter's own").isEqualTo(letter.timestamp());
            assertThat(back.headers().lastHeader("trace-id")).as("not in the dead letter, so not back").isNull();
            for (Header header : back.headers()) {
                assertThat(header.key()).doesNotStartWith("__dlq.errors.");
            }
        }
    }

    @Test
    void findsTheDeadLetterTopicsShareGroupsNameWithoutAPattern(LocalKafka kafka) throws Exception {
        String topic = "sharefound";
        String dlq = "dlq." + topic;
        String group = "finders";
        kafka.createTopic(topic, 1, Map.of());
        kafka.createTopic(dlq, 1, Map.of("errors.deadletterqueue.group.enable", "true"));
        RealDeadLetterWriters.shareGroupDlq(kafka, group, dlq);
        Properties props = kafka.clientProps();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        Map<String, Object> worker = new HashMap<>(Map.of("group.id", "connect-cluster", "bootstrap.servers",
                kafka.bootstrapServers(), "rest.advertised.host.name", "127.0.0.1", "rest.advertised.port", "8083",
                MonitorConfig.TOPICS_REGEX_CONFIG, ""));
        try (KafkaShareConsumer<byte[], byte[]> member = new KafkaShareConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
             TopicDiscovery discovery = new TopicDiscovery(InProcessMonitor.noConnectors(),
                     new MonitorConfig(worker), Optional.of(shareGroupDlqs(kafka, worker)), Optional.empty())) {
            member.subscribe(List.of(topic));
            MonitoredTopics found = Await.value("the share group's DLQ topic discovered", DEADLINE, () -> {
                member.poll(Duration.ofMillis(200));
                MonitoredTopics now = discovery.discover();
                return now.names().contains(dlq) ? now : null;
            });

            assertThat(found.connectorOf(dlq)).as("the group naming it").isEqualTo(group);
            assertThat(found.names()).doesNotContain(topic);
        }
        worker.put(MonitorConfig.DISCOVER_SHARE_GROUPS_CONFIG, "false");
        try (TopicDiscovery off = new TopicDiscovery(InProcessMonitor.noConnectors(), new MonitorConfig(worker),
                Optional.of(shareGroupDlqs(kafka, worker)), Optional.empty())) {
            assertThat(off.discover().names()).doesNotContain(dlq);
        }
    }

    @Test
    void refusesHostileDeadLetterTopicsGroupConfigsNameAndKeepsTheGoodOnes(LocalKafka kafka) throws Exception {
        String topic = "sharehostile";
        String dlq = "dlq." + topic;
        kafka.createTopic(topic, 1, Map.of());
        kafka.createTopic(dlq, 1, Map.of("errors.deadletterqueue.group.enable", "true"));
        // The 4.4 broker itself refuses names starting with "__" (__consumer_offsets, ...): ShareGroupTopicRuleTest
        Map<String, String> hostile = new TreeMap<>(Map.of("evil-progress", "orders-sink.progress.internal",
                "evil-connect", "connect-offsets", "evil-worker", "hostile-connect-configs",
                "evil-monitor", "connect-cluster-dead-letter-monitor-abc-store-changelog",
                "evil-parking", "dlq.sharehostile.parking", "evil-illegal", "bad topic <b>"));
        String connectorDlq = "sharehostile-connector-dlq";
        kafka.createTopic(connectorDlq, 1, Map.of("errors.deadletterqueue.group.enable", "true"));
        hostile.put("evil-impostor", connectorDlq);
        String plain = "sharehostile-payments"; // an application's topic, not enabled for share groups' dead letters
        kafka.createTopic(plain, 1, Map.of());
        hostile.put("evil-plain", plain);
        RealDeadLetterWriters.shareGroupDlq(kafka, "good", dlq);
        for (Map.Entry<String, String> group : hostile.entrySet()) {
            RealDeadLetterWriters.shareGroupDlq(kafka, group.getKey(), group.getValue());
        }
        Map<String, Object> worker = new HashMap<>(Map.of("group.id", "connect-cluster", "bootstrap.servers",
                kafka.bootstrapServers(), "rest.advertised.host.name", "127.0.0.1", "rest.advertised.port", "8083",
                "config.storage.topic", "hostile-connect-configs", MonitorConfig.TOPICS_REGEX_CONFIG, ""));
        List<KafkaShareConsumer<byte[], byte[]>> members = new ArrayList<>();
        ConnectClusterState cluster = oneConnector("orders-copy", Map.of("connector.class", "FileStreamSink",
                "errors.deadletterqueue.topic.name", connectorDlq));
        try (TopicDiscovery discovery = new TopicDiscovery(cluster, new MonitorConfig(worker),
                Optional.of(shareGroupDlqs(kafka, worker)), Optional.empty())) {
            for (String group : concat("good", hostile.keySet())) {
                members.add(member(kafka, group, topic));
            }
            Await.until(() -> "every share group listed", DEADLINE, () -> {
                members.forEach(member -> member.poll(Duration.ofMillis(100)));
                return shareGroups(kafka).containsAll(concat("good", hostile.keySet()));
            });
            MonitoredTopics found = Await.value("the good group's DLQ topic discovered", DEADLINE, () -> {
                MonitoredTopics now = discovery.discover();
                return now.names().contains(dlq) ? now : null;
            });

            assertThat(found.names()).as("the other tests' groups share the broker").contains(dlq, connectorDlq)
                    .doesNotContainAnyElementsOf(hostile.values().stream().filter(t -> !t.equals(connectorDlq))
                            .toList());
            assertThat(found.connectorOf(dlq)).isEqualTo("good");
            assertThat(found.connectorOf(connectorDlq)).as("a group naming a connector's DLQ does not take it")
                    .isEqualTo("orders-copy");
            readsAFewGroupsPerRoundAndStillFindsEveryOne(kafka, worker, dlq, shareGroups(kafka).size());
        } finally {
            members.forEach(KafkaShareConsumer::close);
        }
    }

    /**
     * Whoever may create share groups decides how many there are: a discovery round reads the configs of a bounded
     * number of them, in rotation, and every group still comes up. With two per round over the {@code listed} groups
     * of this broker (the hostile ones named to sort before "good"), each describe names at most two groups and the
     * good group's topic is found within the rounds a full rotation takes.
     */
    private static void readsAFewGroupsPerRoundAndStillFindsEveryOne(LocalKafka kafka, Map<String, Object> worker,
                                                                     String dlq, int listed) {
        List<Integer> groupsPerDescribe = new java.util.concurrent.CopyOnWriteArrayList<>();
        Map<String, Object> adminConfig = new HashMap<>();
        kafka.clientProps().forEach((key, value) -> adminConfig.put(String.valueOf(key), value));
        Supplier<Admin> counting = () -> new ForwardingAdmin(adminConfig) {
            @Override
            public DescribeConfigsResult describeConfigs(Collection<ConfigResource> resources,
                                                         DescribeConfigsOptions options) {
                groupsPerDescribe.add((int) resources.stream()
                        .filter(r -> r.type() == ConfigResource.Type.GROUP).count());
                return super.describeConfigs(resources, options);
            }
        };
        MonitorConfig config = new MonitorConfig(worker);
        ReplayDestinations destinations = ReplayDestinations.of(config, worker,
                WorkerSettings.from(worker, config).applicationId());
        try (ShareGroupDlqs twoPerRound = new ShareGroupDlqs(counting,
                new ShareGroupTopicRule(Pattern.compile(destinations.denied())), 2)) {
            int rounds = 0;
            boolean found = false;
            while (!found && rounds <= listed / 2 + 1) {
                found = twoPerRound.discover().containsKey(dlq);
                rounds++;
            }
            assertThat(found).as("the good group's topic found within a rotation over %d groups (%d rounds)", listed,
                    rounds).isTrue();
            assertThat(groupsPerDescribe).as("groups whose configs one round read").isNotEmpty()
                    .allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(2));
        }
    }

    private static ConnectClusterState oneConnector(String name, Map<String, String> config) {
        return new ConnectClusterState() {
            @Override
            public Collection<String> connectors() {
                return List.of(name);
            }

            @Override
            public ConnectorHealth connectorHealth(String connName) {
                throw new IllegalArgumentException("health is not read here");
            }

            @Override
            public Map<String, String> connectorConfig(String connName) {
                return config;
            }
        };
    }

    private static ShareGroupDlqs shareGroupDlqs(LocalKafka kafka, Map<String, Object> worker) {
        MonitorConfig config = new MonitorConfig(worker);
        ReplayDestinations destinations = ReplayDestinations.of(config, worker,
                WorkerSettings.from(worker, config).applicationId());
        return new ShareGroupDlqs(kafka::admin, new ShareGroupTopicRule(Pattern.compile(destinations.denied())));
    }

    private static KafkaShareConsumer<byte[], byte[]> member(LocalKafka kafka, String group, String topic) {
        Properties props = kafka.clientProps();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        KafkaShareConsumer<byte[], byte[]> member = new KafkaShareConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        member.subscribe(List.of(topic));
        return member;
    }

    private static Set<String> shareGroups(LocalKafka kafka) {
        try (Admin admin = kafka.admin()) {
            return admin.listGroups(ListGroupsOptions.forShareGroups()).all().get(30, TimeUnit.SECONDS).stream()
                    .map(GroupListing::groupId).collect(Collectors.toSet());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted listing share groups", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("listing share groups", e);
        }
    }

    private static List<String> concat(String first, Collection<String> rest) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }

    private static void produce(LocalKafka kafka, String topic) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < LETTERS; i++) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, i % 2, TWO_DAYS_AGO + i,
                        bytes("payment-" + i), bytes("{\"id\":" + i + "}"));
                record.headers().add("trace-id", bytes("t" + i));
                producer.send(record);
            }
            producer.flush();
        }
    }
}
