package dev.quarantine.streams.query;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Answers "does this instance still host it, and if not, who does?" from Kafka Streams' own metadata
 * ({@code queryMetadataForKey}, {@code streamsMetadataForStore}) and this instance's {@code application.server}.
 */
final class Locator {

    private static final HostInfo UNAVAILABLE = HostInfo.unavailable();

    private final StreamsView streams;
    private final HostInfo self;

    Locator(StreamsView streams, HostInfo self) {
        this.streams = streams;
        this.self = self == null ? UNAVAILABLE : self;
    }

    Location locate(Target target) {
        if (self.equals(UNAVAILABLE)) {
            return target.locatesKey() ? keyMetadataReadiness(target) : Location.UNKNOWN;
        }
        try {
            return target.locatesKey() ? locateKey(target) : locateStore(target);
        } catch (RuntimeException e) {
            // not running (IllegalStateException) or not started: the metadata cannot tell
            return Location.UNKNOWN;
        }
    }

    private Location keyMetadataReadiness(Target target) {
        try {
            KeyQueryMetadata metadata = streams.metadataForKey(target.storeName(), target.key(), target.keySerializer());
            return metadata == null || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata) ? Location.NOT_AVAILABLE : Location.UNKNOWN;
        } catch (RuntimeException e) {
            return Location.UNKNOWN;
        }
    }

    private Location locateKey(Target target) {
        KeyQueryMetadata metadata = streams.metadataForKey(target.storeName(), target.key(), target.keySerializer());
        if (metadata == null || KeyQueryMetadata.NOT_AVAILABLE.equals(metadata)) {
            return Location.NOT_AVAILABLE;
        }
        if (self.equals(metadata.activeHost()) || target.staleStores() && metadata.standbyHosts().contains(self)) {
            return Location.HERE;
        }
        if (UNAVAILABLE.equals(metadata.activeHost())) {
            return Location.UNKNOWN;
        }
        return Location.elsewhere(metadata.activeHost());
    }

    private Location locateStore(Target target) {
        Collection<StreamsMetadata> all = streams.metadataForStore(target.storeName());
        if (all.isEmpty()) {
            return Location.UNKNOWN;
        }
        if (all.stream().anyMatch(m -> m.hostInfo().equals(self) && hosts(m, target))) {
            return Location.HERE;
        }
        Optional<HostInfo> owner = all.stream().filter(m -> hosts(m, target)).map(StreamsMetadata::hostInfo)
                .min(Comparator.comparing(HostInfo::toString));
        return owner.map(Location::elsewhere).orElse(Location.NOWHERE);
    }

    private static boolean hosts(StreamsMetadata metadata, Target target) {
        boolean active = metadata.stateStoreNames().contains(target.storeName())
                && hasPartition(metadata.topicPartitions(), target.partition());
        boolean standby = target.staleStores() && metadata.standbyStateStoreNames().contains(target.storeName())
                && hasPartition(metadata.standbyTopicPartitions(), target.partition());
        return active || standby;
    }

    /**
     * Best effort: the metadata lists source-topic partitions, not store partitions; a store's partition {@code p}
     * is fed by partition {@code p} of its source topics.
     */
    private static boolean hasPartition(Set<TopicPartition> partitions, Integer partition) {
        return partition == null || partitions.stream().anyMatch(tp -> tp.partition() == partition);
    }
}
