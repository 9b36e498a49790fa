package dev.quarantine.connect.sink.config;

import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

class PartitionMappingTest {

    @Test
    void hashKeepsAPartitionTheTargetHas() {
        assertThat(PartitionMapping.HASH.choose(2, bytes("k"), 3)).isEqualTo(2);
    }

    @Test
    void hashPicksKafkasPartitionForTheKeyWhereTheTargetLacksThePartition() {
        byte[] key = bytes("customer-42");
        int expected = Utils.toPositive(Utils.murmur2(key)) % 2;

        assertThat(PartitionMapping.HASH.choose(3, key, 2)).isEqualTo(expected);
        assertThat(PartitionMapping.HASH.choose(2, key, 2)).as("the same key, the same partition")
                .isEqualTo(expected);
    }

    @Test
    void hashSpreadsRecordsWithoutAKeyByTheirPartition() {
        assertThat(PartitionMapping.HASH.choose(3, null, 1)).isZero();
        assertThat(PartitionMapping.HASH.choose(5, null, 3)).isEqualTo(2);
    }

    @Test
    void hashLeavesAMissingPartitionToTheProducer() {
        assertThat(PartitionMapping.HASH.choose(null, bytes("k"), 3)).isNull();
    }

    @Test
    void keepKeepsThePartitionEvenWhereTheTargetLacksIt() {
        assertThat(PartitionMapping.KEEP.choose(3, bytes("k"), 1)).isEqualTo(3);
        assertThat(PartitionMapping.KEEP.choose(0, null, 1)).isZero();
    }
}
