package dev.quarantine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The proxy holds the requests of one API (a transaction's {@code EndTxn}, past the producer's {@code max.block.ms})
 * while the broker answers everything else, and lets them go on when released: the commit retried then completes.
 */
class HoldingProxyIT {

    @Test
    void holdsOneApisRequestsWhileTheBrokerAnswersTheRestAndReleasesThem() throws Exception {
        try (HoldingProxy proxy = HoldingProxy.listen();
             LocalKafka kafka = proxy.startBroker()) {
            kafka.createTopic("held");
            Properties props = kafka.clientProps();
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "holding-proxy-it");
            // the held commit times out after this; the one retried after the release has as long, a loaded machine
            props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                    new StringSerializer()); Admin admin = kafka.admin()) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("held", "k", "v")).get();
                proxy.hold(ApiKeys.END_TXN);

                assertThat(catchThrowable(producer::commitTransaction)).isInstanceOf(TimeoutException.class);
                assertThat(proxy.heldRequests()).isPositive();
                assertThat(admin.listTopics().names().get()).as("other connections go on").contains("held");

                proxy.release();
                proxy.awaitForwarded(Duration.ofSeconds(30));
                producer.commitTransaction();
            }
            assertThat(TopicReader.readCommitted(kafka, "held", Duration.ofSeconds(30))).hasSize(1);
        }
    }

    @Test
    void forwardsToTheLoopbackOnly() {
        try (HoldingProxy proxy = HoldingProxy.listen()) {
            assertThat(catchThrowable(() -> proxy.forwardTo("10.0.0.1:9092")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("127.0.0.1 only");
        }
    }
}
