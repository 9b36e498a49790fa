package dev.quarantine.connect.sink.config;

import org.apache.kafka.common.utils.Utils;

/**
 * {@code target.partition.mapping}: the target partition of a record whose partition the target topic does not have.
 * A record whose partition exists in the target topic keeps it, whatever the mapping.
 */
public enum PartitionMapping {

    /**
     * Kafka's default partitioner on the key bytes (murmur2, as {@code BuiltInPartitioner.partitionForKey}); a record
     * without a key goes to its partition modulo the count, so the choice never depends on timing.
     */
    HASH {
        @Override
        public Integer choose(Integer partition, byte[] key, int targetPartitions) {
            if (partition == null || partition < targetPartitions) {
                return partition;
            }
            return key == null ? partition % targetPartitions : Utils.toPositive(Utils.murmur2(key)) % targetPartitions;
        }
    },

    /** The record keeps its partition; where the target topic does not have it, the record is a poison record. */
    KEEP {
        @Override
        public Integer choose(Integer partition, byte[] key, int targetPartitions) {
            return partition;
        }
    };

    /**
     * @param partition        the record's partition (after transforms), or null to leave it to the producer
     * @param key              the record's key as it is written, or null
     * @param targetPartitions how many partitions the target topic has, at least 1
     */
    public abstract Integer choose(Integer partition, byte[] key, int targetPartitions);
}
