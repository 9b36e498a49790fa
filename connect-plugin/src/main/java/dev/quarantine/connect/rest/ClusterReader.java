package dev.quarantine.connect.rest;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

import dev.quarantine.streams.query.StateStoreMigratedException;
import dev.quarantine.streams.query.StateStoreRetryableException;

/**
 * Cluster-wide figures: this worker's partitions of the aggregation read from its own stores, every other worker's
 * asked over HTTP, and the shares added up only when every partition answered exactly once; otherwise an error,
 * never a partial figure.
 */
final class ClusterReader {

    private final Monitor monitor;
    private final WorkerSettings worker;
    private final Peers peers;
    private final Clock clock;

    ClusterReader(Monitor monitor, WorkerSettings worker, Peers peers, Clock clock) {
        this.monitor = monitor;
        this.worker = worker;
        this.peers = peers;
        this.clock = clock;
    }

    /** The figures of every partition of the aggregation, from whichever worker holds each. */
    Partial readCluster(Partial.Query query, String authorization) {
        MonitorStreams run = monitor.current();
        Map<HostInfo, SortedSet<Integer>> owners = owners(run);
        long now = clock.millis();
        Map<HostInfo, CompletableFuture<Partial>> remote = new TreeMap<>(ClusterReader::byAddress);
        owners.forEach((host, partitions) -> {
            if (!host.equals(worker.self())) {
                remote.put(host, peers.fetch(worker.url(host), partitions, query, authorization));
            }
        });
        Partial total = new Partial();
        List<MonitorException> failures = new ArrayList<>();
        for (int partition : owners.getOrDefault(worker.self(), new TreeSet<>())) {
            try {
                total.merge(readLocalOrOwner(run, partition, query, now, authorization), query.records());
            } catch (MonitorException e) {
                failures.add(e);
            }
        }
        remote.forEach((host, share) -> {
            try {
                total.merge(share.join(), query.records());
            } catch (CompletionException e) {
                failures.add(e.getCause() instanceof MonitorException m ? m
                        : MonitorException.retryable("worker " + worker.url(host) + " failed: " + e.getCause(), null));
            }
        });
        if (!failures.isEmpty()) {
            throw mostSevere(failures);
        }
        return total;
    }

    /** The figures of {@code partitions} from this worker's stores only (a peer's request). */
    Partial readLocal(Set<Integer> partitions, Partial.Query query) {
        MonitorStreams run = monitor.current();
        long now = clock.millis();
        Partial total = new Partial();
        for (int partition : partitions) {
            try {
                total.merge(new LocalReader(run.queries(), monitor.config().queryRetry()).read(partition, query, now),
                        query.records());
            } catch (InvalidStateStoreException e) {
                throw monitor.answerFor(run, e);
            }
        }
        return total;
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

    private Partial readLocalOrOwner(MonitorStreams run, int partition, Partial.Query query, long now,
                                     String authorization) {
        try {
            return new LocalReader(run.queries(), monitor.config().queryRetry()).read(partition, query, now);
        } catch (StateStoreMigratedException e) {
            HostInfo owner = e.owner().orElseThrow(() -> MonitorException.retryable("partition " + partition
                    + " of the aggregation is moving and no worker holds it yet", e));
            String ownerUrl = worker.url(owner);
            try {
                return peers.fetch(ownerUrl, List.of(partition), query, authorization).join();
            } catch (CompletionException forwarding) {
                throw MonitorException.migrated(ownerUrl, "partition " + partition + " of the aggregation moved to "
                        + ownerUrl + ", which did not answer: ask it directly", e);
            }
        } catch (InvalidStateStoreException e) {
            throw monitor.answerFor(run, e);
        }
    }

    /** Which worker holds which partitions (tasks) of the aggregation; waits for a rebalance up to the retry time. */
    private Map<HostInfo, SortedSet<Integer>> owners(MonitorStreams run) {
        try {
            return run.queries().retrying(monitor.config().queryRetry().isZero() ? java.time.Duration.ofMillis(1)
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

    private static MonitorException mostSevere(List<MonitorException> failures) {
        MonitorException worst = failures.get(0);
        for (MonitorException failure : failures) {
            if (rank(failure) > rank(worst)) {
                worst = failure;
            }
        }
        return worst;
    }

    private static int rank(MonitorException e) {
        return e.status() == 500 ? 3 : e.status() == MonitorException.MISDIRECTED ? 2 : 1;
    }

    private static int byAddress(HostInfo a, HostInfo b) {
        int byHost = a.host().compareTo(b.host());
        return byHost != 0 ? byHost : Integer.compare(a.port(), b.port());
    }
}
