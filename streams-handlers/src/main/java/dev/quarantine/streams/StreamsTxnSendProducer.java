package dev.quarantine.streams;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.txn.ErrorClassMetrics;
import dev.quarantine.txn.TxnSendProducer;

/** The supplier's producer: a TxnSendProducer whose metrics also show the app's dead-letter counts. */
final class StreamsTxnSendProducer extends TxnSendProducer<byte[], byte[]> {

    private final ErrorClassMetrics deadLetterMetrics;

    StreamsTxnSendProducer(Map<String, Object> configs, ErrorClassMetrics deadLetterMetrics) {
        super(configs, new ByteArraySerializer(), new ByteArraySerializer());
        this.deadLetterMetrics = deadLetterMetrics;
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> all = new HashMap<>(super.metrics());
        all.putAll(deadLetterMetrics.metrics());
        return all;
    }
}
