package dev.quarantine.connect.sink.ownership;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

import org.apache.kafka.common.TopicPartition;

/**
 * This instance's memory of rule O's proof (design 2.3): per partition the claim whose fence of F(o) returned here.
 * It is a fact about the past, so it outlives {@code close} (an eager rebalance giving back an owned partition that was
 * never written needs no second fence), while a pending fence is not remembered at all: a partition closed while
 * CLAIMED is found again without proof and fenced again.
 */
final class FenceMemory {

    private final Map<TopicPartition, Long> returned = new HashMap<>();

    void fenceReturned(TopicPartition source, long claim) {
        returned.merge(source, claim, Math::max);
    }

    OptionalLong of(TopicPartition source) {
        Long claim = returned.get(source);
        return claim == null ? OptionalLong.empty() : OptionalLong.of(claim);
    }
}
