package dev.quarantine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class LocalKafkaIT {

    @Test
    void startsOnLoopbackServesRecordsAndLeavesNothingBehind() throws Exception {
        Path dataDir;
        Set<Long> before = childPids(); // the JVM's shared broker (LocalKafkaExtension) may run beside it
        Set<Long> started;
        try (LocalKafka kafka = LocalKafka.create().start()) {
            started = childPids();
            started.removeAll(before);
            assertThat(started).as("the broker's process").hasSize(1);
            dataDir = kafka.dataDir();
            assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
            kafka.createTopic("sandbox-smoke");

            Properties producerProps = kafka.clientProps();
            producerProps.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "sandbox-smoke");
            try (KafkaProducer<String, String> producer =
                         new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("sandbox-smoke", "k", "v"));
                producer.commitTransaction();
            }

            Properties consumerProps = kafka.clientProps();
            consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "sandbox-smoke");
            consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            try (KafkaConsumer<String, String> consumer =
                         new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of("sandbox-smoke"));
                List<String> values = TopicReader.pollUntil(consumer, 1, Duration.ofSeconds(30)).stream()
                        .map(r -> r.value()).toList();
                assertThat(values).containsExactly("v");
            }
        }
        assertThat(Files.exists(dataDir)).as("data dir %s deleted", dataDir).isFalse();
        assertThat(childPids()).as("no broker process left").doesNotContainAnyElementsOf(started);
    }

    private static Set<Long> childPids() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
                .collect(Collectors.toCollection(HashSet::new));
    }

    @Test
    void keepsItsDataAcrossAKillAndARestartOnTheSamePort() throws Exception {
        try (LocalKafka kafka = LocalKafka.create().start()) {
            String address = kafka.bootstrapServers();
            kafka.createTopic("sandbox-restart");
            Properties producerProps = kafka.clientProps();
            producerProps.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "sandbox-restart");
            try (KafkaProducer<String, String> producer =
                         new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("sandbox-restart", "k", "before the crash"));
                producer.commitTransaction();
            }
            // the commit markers are written after commitTransaction() returns: wait for them, so the kill loses
            // nothing that was acknowledged as written
            assertThat(TopicReader.readCommitted(kafka, "sandbox-restart", Duration.ofSeconds(30))).hasSize(1);

            kafka.kill();
            kafka.restart();

            assertThat(kafka.bootstrapServers()).isEqualTo(address);
            assertThat(TopicReader.readCommitted(kafka, "sandbox-restart", Duration.ofSeconds(60)))
                    .extracting(r -> new String(r.value(), StandardCharsets.UTF_8)).containsExactly("before the crash");
        }
    }

    @Test
    void answersNothingWhilePausedAndEverythingAfterResume() throws Exception {
        try (LocalKafka kafka = LocalKafka.create().start()) {
            Properties props = kafka.clientProps();
            props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "2000");
            props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "1000");
            try (Admin admin = Admin.create(props)) {
                kafka.pause();
                try {
                    assertThatThrownBy(() -> admin.listTopics().names().get())
                            .hasCauseInstanceOf(TimeoutException.class);
                } finally {
                    kafka.resume();
                }
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(1);
            }
        }
    }

    /**
     * The extension's broker is one per test JVM (a static, not JUnit's root store, which failsafe closes after every
     * class), and a new one starts when its process is gone.
     */
    @Test
    void sharesOneBrokerPerTestJvmAndStartsANewOneWhenItsProcessIsGone() {
        LocalKafka shared = LocalKafkaExtension.sharedBroker();
        assertThat(LocalKafkaExtension.sharedBroker()).isSameAs(shared);

        shared.kill();
        LocalKafka next = LocalKafkaExtension.sharedBroker();

        assertThat(next).isNotSameAs(shared);
        assertThat(next.isRunning()).isTrue();
        next.createTopic("after-the-kill");
    }
}
