package dev.quarantine.connect.rest.resources;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.streams.query.StateStoreMigratedException;
import dev.quarantine.streams.query.StateStoreRetryableException;
import dev.quarantine.streams.query.StoreErrorCategory;
import dev.quarantine.connect.rest.aggregation.LocalReader;
import dev.quarantine.connect.rest.aggregation.Monitor;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.connect.rest.aggregation.MonitorStreams;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;
import dev.quarantine.connect.rest.peers.Peers;
import dev.quarantine.connect.rest.WorkerSettings;

/**
 * Cluster-wide figures: this worker's partitions of the aggregation read from its own stores, every other worker's
 * asked over HTTP ({@link Peers}, only with a peer secret), and the shares added up only when every partition
 * answered exactly once; otherwise an error, never a wrong figure. Without a peer secret the figures of other workers
 * are left out and marked missing, never taken on trust. Local reads share one deadline (the store wait), peer calls
 * run in parallel, each with its own deadline.
 */
public final class ClusterReader {

    private static final Logger log = LoggerFactory.getLogger(ClusterReader.class);
    private static final long UNTRUSTED_LOG_INTERVAL_MS = 60_000;

    private final Monitor monitor;
    private final WorkerSettings worker;
    private final Peers peers;
    private final boolean trustPeers;
    private final Clock clock;
    private volatile long untrustedLoggedAt = Long.MIN_VALUE;

    public ClusterReader(Monitor monitor, WorkerSettings worker, Peers peers, boolean trustPeers, Clock clock) {
        this.monitor = monitor;
        this.worker = worker;
        this.peers = peers;
        this.trustPeers = trustPeers;
        this.clock = clock;
    }

    /** The figures of every partition of the aggregation, from whichever worker holds each. */
    PartitionFigures readCluster(PartitionFigures.Query query) {
        MonitorStreams run = monitor.current();
        Map<HostInfo, SortedSet<Integer>> owners = owners(run);
        PartitionFigures total = new PartitionFigures();
        Map<HostInfo, CompletableFuture<PartitionFigures>> remote = new TreeMap<>(ClusterReader::byAddress);
        owners.forEach((host, partitions) -> {
            if (host.equals(worker.self())) {
                return;
            }
            if (trustPeers) {
                remote.put(host, peers.fetch(host, partitions, query, run.topics().fingerprint()));
            } else {
                total.missing().addAll(partitions);
            }
        });
        logUntrusted(total.missing());
        List<MonitorException> failures = new ArrayList<>();
        long deadline = clock.millis() + monitor.config().queryRetry().toMillis();
        for (int partition : owners.getOrDefault(worker.self(), new TreeSet<>())) {
            try {
                add(total, readLocalOrOwner(run, partition, query, deadline), query);
            } catch (MonitorException e) {
                failures.add(e);
            }
        }
        remote.forEach((host, share) -> {
            try {
                add(total, share.join(), query);
            } catch (MonitorException e) {
                failures.add(e);
            } catch (CompletionException e) {
                failures.add(e.getCause() instanceof MonitorException m ? m
                        : MonitorException.fatal("the share of worker " + worker.url(host) + " failed", e.getCause()));
            }
        });
        if (!failures.isEmpty()) {
            throw mostSevere(failures);
        }
        return total;
    }

    /** Adds a share; one whose partitions were already counted (metadata changing under the read) means retry. */
    private static void add(PartitionFigures total, PartitionFigures share, PartitionFigures.Query query) {
        try {
            total.merge(share, query.records());
        } catch (IllegalStateException e) {
            throw MonitorException.retryable("the aggregation's assignment changed during the read: " + e.getMessage(),
                    null);
        }
    }

    /**
     * The figures of {@code partitions} from this worker's stores only (a peer's request), of the aggregation the peer
     * reads ({@code aggregation}, a {@link dev.quarantine.connect.rest.discovery.MonitoredTopics#fingerprint()};
     * empty from a worker that does not name it): when this worker runs another one, for now, a conflict, never
     * figures of other topics under the same partition numbers.
     */
    PartitionFigures readLocal(Set<Integer> partitions, PartitionFigures.Query query, Optional<String> aggregation) {
        MonitorStreams run = monitor.current();
        requireAggregation(run, aggregation);
        long deadline = clock.millis() + monitor.config().queryRetry().toMillis();
        PartitionFigures total = new PartitionFigures();
        for (int partition : partitions) {
            try {
                total.merge(localReader(run, deadline).read(partition, query, clock.millis()), query.records());
            } catch (InvalidStateStoreException e) {
                throw monitor.answerFor(run, e);
            }
        }
        return total;
    }

    /** Fails with a conflict (409) when this worker runs another aggregation now than {@code aggregation} names. */
    void requireAggregation(Optional<String> aggregation) {
        requireAggregation(monitor.current(), aggregation);
    }

    private static void requireAggregation(MonitorStreams run, Optional<String> aggregation) {
        String own = run.topics().fingerprint();
        if (aggregation.isPresent() && !aggregation.get().equals(own)) {
            throw MonitorException.conflict("this worker runs aggregation " + own + ", not " + aggregation.get()
                    + ": the workers do not read the same dead-letter topics yet");
        }
    }

    /** Every topic the aggregation reads or is told to: the monitored names and the topics it has partitions of. */
    SortedSet<String> knownTopics() {
        MonitorStreams run = monitor.current();
        SortedSet<String> topics = new TreeSet<>(run.topics().names());
        try {
            for (StreamsMetadata client : run.streams().metadataForAllStreamsClients()) {
                client.topicPartitions().forEach(tp -> topics.add(tp.topic()));
            }
        } catch (RuntimeException e) {
            // not started yet: the named topics are all that is known
        }
        return topics;
    }

    private LocalReader localReader(MonitorStreams run, long deadline) {
        return new LocalReader(run.queries(), Duration.ofMillis(Math.max(1, deadline - clock.millis())));
    }

    private PartitionFigures readLocalOrOwner(MonitorStreams run, int partition, PartitionFigures.Query query,
            long deadline) {
        try {
            return localReader(run, deadline).read(partition, query, clock.millis());
        } catch (StateStoreMigratedException e) {
            HostInfo owner = e.owner().orElse(null);
            if (owner == null || !trustPeers) {
                throw MonitorException.retryable("partition " + partition + " of the aggregation is moving"
                        + (owner == null ? " and no worker holds it yet" : " and no peer secret is set"), e);
            }
            try {
                return peers.fetch(owner, List.of(partition), query, run.topics().fingerprint()).join();
            } catch (CompletionException forwarding) {
                // the owner did not answer, or could not prove it is a peer (a forged group member): the client can
                // do nothing but wait for the group to settle, so 503 with Retry-After, never a 421 to an unproven owner
                throw MonitorException.retryable("partition " + partition + " of the aggregation moved to "
                        + worker.url(owner) + ", which could not answer for it: " + forwarding.getCause().getMessage(),
                        e);
            }
        } catch (InvalidStateStoreException e) {
            throw monitor.answerFor(run, e);
        }
    }

    /** Which worker holds which partitions (tasks) of the aggregation; waits for a rebalance up to the retry time. */
    private Map<HostInfo, SortedSet<Integer>> owners(MonitorStreams run) {
        try {
            return run.queries().retrying(monitor.config().queryRetry().isZero() ? Duration.ofMillis(1)
                    : monitor.config().queryRetry()).call(() -> assignment(run)).value();
        } catch (InvalidStateStoreException e) {
            throw monitor.answerFor(run, e);
        }
    }

    private static Map<HostInfo, SortedSet<Integer>> assignment(MonitorStreams run) {
        KafkaStreams.State state = run.streams().state();
        if (state != KafkaStreams.State.RUNNING) {
            throw new StateStoreRetryableException("the dead-letter aggregation is " + state, null);
        }
        Map<HostInfo, SortedSet<Integer>> owners = new TreeMap<>(ClusterReader::byAddress);
        for (StreamsMetadata client : run.streams().metadataForAllStreamsClients()) {
            for (TopicPartition tp : client.topicPartitions()) {
                owners.computeIfAbsent(client.hostInfo(), h -> new TreeSet<>()).add(tp.partition());
            }
        }
        return owners;
    }

    private void logUntrusted(SortedSet<Integer> missing) {
        long now = clock.millis();
        if (!missing.isEmpty() && now - untrustedLoggedAt >= UNTRUSTED_LOG_INTERVAL_MS) {
            untrustedLoggedAt = now;
            log.warn("Dead-letter monitor: other workers run the monitor too, but {} is not set on this worker: its"
                    + " answers hold only its own share (partitions {} are missing). Set the same secret on every"
                    + " worker", MonitorConfig.PEER_SECRET_CONFIG, missing);
        }
    }

    /** The one ranking of store errors, {@link StoreErrorCategory#outranks}: FATAL, then RETRYABLE, then MIGRATED. */
    static MonitorException mostSevere(List<MonitorException> failures) {
        MonitorException worst = failures.get(0);
        for (MonitorException failure : failures) {
            if (category(failure).outranks(category(worst))) {
                worst = failure;
            }
        }
        return worst;
    }

    /** A peer's answer that is not a store error (401, 403, ...) counts like a peer that did not answer. */
    private static StoreErrorCategory category(MonitorException e) {
        return switch (e.category()) {
            case "FATAL" -> StoreErrorCategory.FATAL;
            case "MIGRATED" -> StoreErrorCategory.MIGRATED;
            default -> StoreErrorCategory.RETRYABLE;
        };
    }

    private static int byAddress(HostInfo a, HostInfo b) {
        int byHost = a.host().compareTo(b.host());
        return byHost != 0 ? byHost : Integer.compare(a.port(), b.port());
    }
}
