package dev.quarantine.quickstart;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.ProducerRecord;

import dev.quarantine.sandbox.LocalKafka;

/** The demo's topics and its ten orders, three of which cannot be written. */
record Topics(String orders, String customers, String deadLetter, String typo) {

    static Topics create(LocalKafka kafka, String prefix) {
        Topics topics = new Topics(prefix + "-orders", prefix + "-customers", prefix + "-dead-letters",
                prefix + "-ordres");
        kafka.createTopic(topics.orders(), 1, Map.of("max.message.bytes", "10000"));
        kafka.createTopic(topics.customers(), 1, Map.of("cleanup.policy", "compact"));
        kafka.createTopic(topics.deadLetter());
        return topics;
    }

    /** Orders 1..n; order 4 is 20 KB (over the topic's 10 KB), order 7 goes to a misspelt topic, order 9 updates a
     * compacted topic without a key. */
    List<ProducerRecord<byte[], byte[]>> orders(int n) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            String key = "order-" + i;
            if (i == 4) {
                records.add(new ProducerRecord<>(orders, Quickstart.utf8(key), new byte[20_000]));
            } else if (i == 7) {
                records.add(new ProducerRecord<>(typo, Quickstart.utf8(key), Quickstart.utf8("{\"qty\":7}")));
            } else if (i == 9) {
                records.add(new ProducerRecord<>(customers, null, Quickstart.utf8("{\"customer\":\"c-9\"}")));
            } else if (i % 2 == 0) {
                records.add(new ProducerRecord<>(customers, Quickstart.utf8("customer-" + i),
                        Quickstart.utf8("{\"customer\":\"c-" + i + "\"}")));
            } else {
                records.add(new ProducerRecord<>(orders, Quickstart.utf8(key), Quickstart.utf8("{\"qty\":" + i + "}")));
            }
        }
        return records;
    }
}
