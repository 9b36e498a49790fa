package dev.quarantine.connect.rest;

import java.time.Clock;
import java.util.Map;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.rest.ConnectRestExtension;
import org.apache.kafka.connect.rest.ConnectRestExtensionContext;

import dev.quarantine.txn.PluginVersion;

/**
 * Monitors the cluster's dead-letter topics and answers on the worker's own REST API: {@code GET /dead-letters},
 * {@code /dead-letters/{topic}} and {@code /dead-letters/{topic}/records}. Enable it with the worker setting
 * {@code rest.extension.classes=dev.quarantine.connect.rest.DeadLetterRestExtension}; its settings are worker settings
 * starting with {@code quarantine.monitor.} ({@link MonitorConfig}).
 *
 * <p>An embedded Kafka Streams application aggregates the dead-letter topics; the workers of a Connect cluster share
 * it and ask each other for their shares. This class only wires: configuration, the monitor, the endpoints.
 */
public final class DeadLetterRestExtension implements ConnectRestExtension {

    private MonitorConfig config;
    private WorkerSettings worker;
    private Monitor monitor;
    private PeerServer peerServer;

    @Override
    public void configure(Map<String, ?> workerConfigs) {
        config = new MonitorConfig(workerConfigs);
        worker = WorkerSettings.from(workerConfigs, config);
    }

    @Override
    public void register(ConnectRestExtensionContext context) {
        peerServer = PeerServer.start(worker.bindHost(), config.peerPort(), config.maxConcurrentRequests());
        WorkerSettings reachable = worker.withPeerPort(peerServer.port());
        monitor = new Monitor(config, reachable, new TopicDiscovery(context.clusterState(), config));
        PeerAuth auth = new PeerAuth(config.peerSecret(), Clock.systemUTC());
        Peers peers = new Peers(reachable, auth, config.forwardTimeout(), config.maxPeerAnswerBytes());
        ClusterReader reader = new ClusterReader(monitor, reachable, peers, auth.enabled(), Clock.systemUTC());
        Answers answers = new Answers(config, auth);
        peerServer.serve(new PeerEndpoint(monitor, reader, auth, answers));
        context.configurable().register(new DeadLetterResource(monitor, reader, answers, Clock.systemUTC()));
        monitor.start();
    }

    @Override
    public ConfigDef config() {
        return MonitorConfig.configDef();
    }

    @Override
    public String version() {
        return PluginVersion.of(DeadLetterRestExtension.class);
    }

    @Override
    public void close() {
        if (monitor != null) {
            monitor.close();
        }
        if (peerServer != null) {
            peerServer.close();
        }
    }
}
