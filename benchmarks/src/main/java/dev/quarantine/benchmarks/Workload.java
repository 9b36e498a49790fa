package dev.quarantine.benchmarks;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The records of one measurement: transactions of {@value #RECORDS_PER_TRANSACTION} records to one topic, values of
 * {@value #RECORD_BYTES} bytes, and at the given ratio, evenly spaced, a poison: a value of {@value #POISON_BYTES}
 * bytes, larger than the topic's {@code max.message.bytes} ({@value #TOPIC_MAX_MESSAGE_BYTES}) but well below the
 * producer's {@code max.request.size} (1 MiB), so stock Kafka only finds out when the broker rejects it. Every value
 * starts with its sequence number, so {@link #verify} can tell exactly which records were committed. Transaction 0
 * is a single good record, sent untimed so the producer learns the new topic.
 */
final class Workload {

    static final int RECORDS_PER_TRANSACTION = 1_000;
    static final int RECORD_BYTES = 1_024;
    static final int POISON_BYTES = 40 * 1_024;
    static final int TOPIC_MAX_MESSAGE_BYTES = 32 * 1_024;

    private final String topic;
    private final int poisonSpacing;
    private final List<List<ProducerRecord<byte[], byte[]>>> transactions = new ArrayList<>();
    private final BitSet good = new BitSet();
    private int poisonCount;

    /**
     * @param poisonPerThousand poison records per transaction of 1,000 (0, 1, 10 or 100); must divide 1,000
     */
    Workload(String topic, int poisonPerThousand, int timedTransactions) {
        this.topic = topic;
        this.poisonSpacing = poisonPerThousand == 0 ? 0 : RECORDS_PER_TRANSACTION / poisonPerThousand;
        transactions.add(List.of(record(0)));
        for (int t = 1; t <= timedTransactions; t++) {
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(RECORDS_PER_TRANSACTION);
            for (int i = 0; i < RECORDS_PER_TRANSACTION; i++) {
                records.add(record(t * RECORDS_PER_TRANSACTION + i));
            }
            transactions.add(records);
        }
    }

    String topic() {
        return topic;
    }

    List<ProducerRecord<byte[], byte[]>> transaction(int index) {
        return transactions.get(index);
    }

    int transactionCount() {
        return transactions.size();
    }

    int poisonCount() {
        return poisonCount;
    }

    /**
     * Fails unless {@code committed} holds every good record of this workload exactly once and no poison: the check
     * that a mode cannot look fast by dropping, duplicating or smuggling records.
     */
    void verify(List<ConsumerRecord<byte[], byte[]>> committed, String mode) {
        BitSet seen = new BitSet();
        for (ConsumerRecord<byte[], byte[]> record : committed) {
            int seq = ByteBuffer.wrap(record.value()).getInt();
            if (seq < 0 || !good.get(seq) || seen.get(seq)) {
                throw new IllegalStateException(mode + ": " + topic + " holds an unexpected record, sequence " + seq
                        + " (a poison, a duplicate or unknown)");
            }
            seen.set(seq);
        }
        if (!seen.equals(good)) {
            throw new IllegalStateException(mode + ": " + topic + " holds " + seen.cardinality()
                    + " committed records, expected " + good.cardinality());
        }
    }

    private ProducerRecord<byte[], byte[]> record(int seq) {
        boolean poison = poisonSpacing != 0 && seq % poisonSpacing == poisonSpacing / 2;
        if (poison) {
            poisonCount++;
        } else {
            good.set(seq);
        }
        byte[] value = new byte[poison ? POISON_BYTES : RECORD_BYTES];
        ByteBuffer.wrap(value).putInt(seq);
        return new ProducerRecord<>(topic, value);
    }
}
