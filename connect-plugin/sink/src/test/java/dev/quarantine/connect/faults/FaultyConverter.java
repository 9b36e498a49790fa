package dev.quarantine.connect.faults;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.storage.Converter;

/**
 * A target value converter that injects faults, chosen by how a value (bytes, as ByteArrayConverter delivers them)
 * starts: {@code data-error} fails with DataException, {@code bad-argument} with IllegalArgumentException (both
 * every time: poison), {@code linkage-error} with NoSuchMethodError (as a converter built for another Kafka would),
 * {@code flaky} with Connect's RetriableException the first {@code flaky.failures} times that
 * exact value is converted (a transient fault that heals), {@code slow} sleeps {@code slow.ms} the first time that
 * exact value is converted (a put that outlives the transaction timeout). Anything else passes through unchanged.
 * Loaded by a real worker from its classpath, next to the plugin.
 */
public class FaultyConverter implements Converter {

    private static final Map<String, Integer> SEEN = new ConcurrentHashMap<>();

    private int flakyFailures = 2;
    private long slowMs = 5_000;

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        if (configs.containsKey("flaky.failures")) {
            flakyFailures = Integer.parseInt(configs.get("flaky.failures").toString());
        }
        if (configs.containsKey("slow.ms")) {
            slowMs = Long.parseLong(configs.get("slow.ms").toString());
        }
    }

    @Override
    public byte[] fromConnectData(String topic, Schema schema, Object value) {
        if (!(value instanceof byte[] bytes)) {
            return null;
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.startsWith("data-error")) {
            throw new DataException("FaultyConverter cannot convert this value");
        }
        if (text.startsWith("bad-argument")) {
            throw new IllegalArgumentException("FaultyConverter rejects this value");
        }
        if (text.startsWith("linkage-error")) {
            throw new NoSuchMethodError("FaultyConverter: a method missing from this Kafka version");
        }
        int seen = SEEN.merge(topic + "/" + text, 1, Integer::sum);
        if (text.startsWith("flaky") && seen <= flakyFailures) {
            throw new RetriableException("FaultyConverter: the schema registry is unavailable (attempt " + seen + ")");
        }
        if (text.startsWith("slow") && seen == 1) {
            try {
                Thread.sleep(slowMs); // the fault injected: a conversion slower than the transaction timeout
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return bytes;
    }

    @Override
    public SchemaAndValue toConnectData(String topic, byte[] value) {
        return new SchemaAndValue(Schema.OPTIONAL_BYTES_SCHEMA, value);
    }
}
