package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/** Two transactional producers reading one {@link SharedTopicMetadata}, against the real broker. */
@ExtendWith(LocalKafkaExtension.class)
@SuppressWarnings("unchecked")
class SharedTopicMetadataIT {

    @Test
    void bothProducersLeaveOutRecordsOverTheTopicsLimitWithOneAdminClientWhichOutlivesEitherProducer(LocalKafka kafka)
            throws Exception {
        String topic = "shared-topics-" + System.nanoTime();
        kafka.createTopic(topic, 1, Map.of("max.message.bytes", "10000"));
        String clientId = topic + "-checks";
        List<String> committed = new ArrayList<>();
        try (SharedTopicMetadata shared = new SharedTopicMetadata(configs(kafka, null, clientId))) {
            TxnSendProducer<String, String> first = producer(kafka, topic + "-first", shared);
            TxnSendProducer<String, String> second = producer(kafka, topic + "-second", shared);
            assertThat(first.maxRecordBytes(topic)).isEqualTo(10_000);
            assertThat(second.maxRecordBytes(topic)).isEqualTo(10_000);

            assertThat(writeOneGoodAndOneTooLarge(first, topic, "first")).isInstanceOf(RecordTooLargeException.class);
            assertThat(writeOneGoodAndOneTooLarge(second, topic, "second")).isInstanceOf(RecordTooLargeException.class);
            assertThat(adminThreads(clientId)).as("admin clients reading topic metadata for both producers")
                    .hasSize(1);
            assertThat(adminThreads(topic + "-first")).as("no admin client of a producer's own").isEmpty();
            first.close();

            assertThat(writeOneGoodAndOneTooLarge(second, topic, "second again"))
                    .as("the shared cache still serves the second producer after the first closed")
                    .isInstanceOf(RecordTooLargeException.class);
            assertThat(adminThreads(clientId)).hasSize(1);
            second.close();
            committed.addAll(List.of("first", "second", "second again"));
        }
        assertThat(TxnSendProducerIT.committedValues(kafka, topic)).containsExactlyElementsOf(committed);
        Await.until("the admin client of the shared cache to stop once it is closed", Duration.ofSeconds(30),
                () -> adminThreads(clientId).isEmpty());
    }

    @Test
    void prepareTopicsLooksUpManyNewTopicsTogetherAndLeavesMissingOnesToTheirSends(LocalKafka kafka) throws Exception {
        String prefix = "prepared-" + System.nanoTime() + "-";
        List<String> topics = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            topics.add(prefix + i);
            kafka.createTopic(prefix + i, 1, Map.of());
        }
        String missing = prefix + "missing";
        String clientId = prefix + "checks";
        Set<String> askedOf = ConcurrentHashMap.newKeySet();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger mostInFlight = new AtomicInteger();
        Map<String, Object> configs = configs(kafka, prefix + "txn", clientId);
        try (SharedTopicMetadata shared = new SharedTopicMetadata(configs(kafka, null, clientId));
             KafkaProducer<String, String> kafkaProducer = new KafkaProducer<>(configs, new StringSerializer(),
                     new StringSerializer())) {
            // the real producer, its partitionsFor watched: which topics, how many at once
            Producer<String, String> watched = (Producer<String, String>) Proxy.newProxyInstance(
                    getClass().getClassLoader(), new Class<?>[]{Producer.class}, (proxy, method, args) -> {
                        boolean lookUp = method.getName().equals("partitionsFor");
                        if (lookUp) {
                            askedOf.add((String) args[0]);
                            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                        }
                        try {
                            return method.invoke(kafkaProducer, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        } finally {
                            if (lookUp) {
                                inFlight.decrementAndGet();
                            }
                        }
                    });
            TxnSendProducer<String, String> producer = TxnSendProducer.wrap(watched, configs, new StringSerializer(),
                    new StringSerializer(), shared);
            producer.initTransactions();
            List<String> asked = new ArrayList<>(topics);
            asked.add(missing);

            producer.prepareTopics(asked, Duration.ofSeconds(30));

            assertThat(askedOf).as("the producer's metadata of every existing topic, none of the missing one")
                    .containsExactlyInAnyOrderElementsOf(topics);
            assertThat(mostInFlight.get()).as("topics looked up at once").isGreaterThan(1);
            assertThat(Thread.getAllStackTraces().keySet()).as("no look-up thread outlives the call")
                    .noneMatch(thread -> thread.getName().contains("-prepare-topics-"));
            producer.prepareTopics(asked, Duration.ofSeconds(30));
            assertThat(askedOf).hasSize(topics.size());

            producer.beginTransaction();
            topics.forEach(topic -> producer.send(new ProducerRecord<>(topic, 0, "k", topic), null,
                    TxnSendOption.IGNORE_SEND_ERRORS));
            producer.commitTransaction();
            producer.close();
        }
        for (String topic : List.of(topics.get(0), topics.get(39))) {
            assertThat(TxnSendProducerIT.committedValues(kafka, topic)).containsExactly(topic);
        }
    }

    /** Commits {@code good} and a 20,000-byte record in one transaction; returns what the large one failed with. */
    private static Exception writeOneGoodAndOneTooLarge(TxnSendProducer<String, String> producer, String topic,
                                                        String good) throws Exception {
        CompletableFuture<Exception> tooLarge = new CompletableFuture<>();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, "k", "x".repeat(20_000)), (m, e) -> tooLarge.complete(e),
                TxnSendOption.IGNORE_SEND_ERRORS);
        producer.send(new ProducerRecord<>(topic, 0, "k", good), null, TxnSendOption.IGNORE_SEND_ERRORS);
        producer.commitTransaction();
        return tooLarge.get(30, TimeUnit.SECONDS);
    }

    private static TxnSendProducer<String, String> producer(LocalKafka kafka, String transactionalId,
                                                            SharedTopicMetadata shared) {
        TxnSendProducer<String, String> producer = new TxnSendProducer<>(
                configs(kafka, transactionalId, transactionalId), new StringSerializer(), new StringSerializer(),
                shared);
        producer.initTransactions();
        return producer;
    }

    /** Live threads of admin clients whose client id starts with {@code clientId}. */
    private static List<String> adminThreads(String clientId) {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(name -> name.startsWith("kafka-admin-client-thread | " + clientId)).toList();
    }

    private static Map<String, Object> configs(LocalKafka kafka, String transactionalId, String clientId) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        configs.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        if (transactionalId != null) {
            configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return configs;
    }
}
