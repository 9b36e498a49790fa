package dev.quarantine.streams;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.streams.KafkaClientSupplier;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.txn.TxnSendConfig;
import dev.quarantine.txn.TxnSendOption;

/**
 * A {@link KafkaClientSupplier} whose transactional producers are {@link dev.quarantine.txn.TxnSendProducer}s with
 * {@link TxnSendOption#IGNORE_SEND_ERRORS} as their default option, so under {@code exactly_once_v2} a record the
 * producer or its topic would reject is left out of the transaction and handed to the production exception handler,
 * instead of dooming the transaction; a record to one of the app's internal topics (changelog, repartition) is never
 * left out. Enable with {@code default.client.supplier} alone. Non-transactional producers, consumers and admin
 * clients are Kafka's own; every producer closes within {@link BoundedCloseClientSupplier#PRODUCER_CLOSE_TIMEOUT}
 * (why: {@link BoundedCloseClientSupplier}). {@code txn.send.*} settings may be given with the {@code producer.}
 * prefix.
 */
public class IgnoreSendErrorsClientSupplier extends BoundedCloseClientSupplier implements Configurable {

    private static final Logger log = LoggerFactory.getLogger(IgnoreSendErrorsClientSupplier.class);

    private AppDeadLetters app = AppDeadLetters.of(Map.of());
    private boolean configured;
    private boolean warnedUnconfigured;

    /**
     * Kafka Streams calls this with the app's configs when it creates the supplier from
     * {@code default.client.supplier}; the app's handlers, configured with the same configs, then find this
     * supplier's producers ({@link AppDeadLetters}).
     */
    @Override
    public void configure(Map<String, ?> configs) {
        KafkaStreamsRequirement.require(StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG, getClass());
        app = AppDeadLetters.forSupplier(configs);
        configured = true;
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        if (!config.containsKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG)) {
            return super.getProducer(TxnSendConfig.withoutOurs(config));
        }
        if (!configured && !warnedUnconfigured) {
            warnedUnconfigured = true;
            log.warn("{} was not configured with the app's configs (name it in {}, or call configure(props) on it"
                    + " before new KafkaStreams(topology, props, supplier)): the app's production exception handlers"
                    + " cannot find its producers, so there is no dead-letter breaker and dead letters are kept"
                    + " within {} only", getClass().getSimpleName(), StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG,
                    DeadLetterHandlerConfig.DLQ_PAYLOAD_MAX_BYTES_CONFIG);
        }
        Map<String, Object> configs = new HashMap<>(config);
        configs.put(TxnSendConfig.DEFAULT_OPTION_CONFIG, TxnSendOption.IGNORE_SEND_ERRORS.name());
        return new StreamsTxnSendProducer(configs, app);
    }
}
