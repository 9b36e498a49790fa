package dev.quarantine.connect.rest;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.connect.rest.ConnectRestExtensionContext;
import dev.quarantine.connect.rest.http.Answers;
import dev.quarantine.connect.rest.http.BrowserLoginChallenge;
import dev.quarantine.connect.rest.resources.ClusterReader;
import dev.quarantine.connect.rest.dashboard.DashboardResource;
import dev.quarantine.connect.rest.resources.DeadLetterResource;
import dev.quarantine.connect.rest.replays.DryRunSlots;
import dev.quarantine.connect.rest.http.KnownHosts;
import dev.quarantine.connect.rest.aggregation.Monitor;
import dev.quarantine.connect.rest.aggregation.MonitorStreams;
import dev.quarantine.connect.rest.peers.PeerAnswers;
import dev.quarantine.connect.rest.peers.PeerAuth;
import dev.quarantine.connect.rest.peers.PeerBinding;
import dev.quarantine.connect.rest.resources.PeerEndpoint;
import dev.quarantine.connect.rest.peers.PeerServer;
import dev.quarantine.connect.rest.peers.Peers;
import dev.quarantine.connect.rest.replays.ReplayDestinations;
import dev.quarantine.connect.rest.resources.ReplayResource;
import dev.quarantine.connect.rest.replays.Replays;
import dev.quarantine.connect.rest.http.RequestGuardFilter;
import dev.quarantine.connect.rest.discovery.ShareGroupDlqs;
import dev.quarantine.connect.rest.discovery.ShareGroupTopicRule;
import dev.quarantine.connect.rest.discovery.SubscriptionWidth;
import dev.quarantine.connect.rest.discovery.TopicDiscovery;
import dev.quarantine.connect.rest.replays.WorkerRestClient;

/**
 * The monitor of a worker that can run it ({@link MonitorRequirements}): its peer listener, the aggregation and the
 * endpoints, wired together. The only class that {@link DeadLetterRestExtension} reaches Kafka Streams through, so
 * that a worker without kafka-streams never loads any of it.
 */
final class RunningMonitor implements AutoCloseable {

    /** How long a call to this worker's own REST API, or a read of the replays' progress, may take. */
    private static final Duration REPLAY_CALL_TIMEOUT = Duration.ofSeconds(30);

    private final Monitor monitor;
    private final PeerServer peerServer;
    private final Replays replays;

    private RunningMonitor(Monitor monitor, PeerServer peerServer, Replays replays) {
        this.monitor = monitor;
        this.peerServer = peerServer;
        this.replays = replays;
    }

    /**
     * Starts the monitor in the background and registers its endpoints.
     *
     * @throws org.apache.kafka.common.config.ConfigException when the worker's settings do not fit the monitor
     */
    static RunningMonitor start(MonitorConfig config, Map<String, ?> workerConfigs,
                                ConnectRestExtensionContext context) {
        WorkerSettings worker = WorkerSettings.from(workerConfigs, config);
        PeerServer peerServer = PeerServer.start(PeerBinding.host(config.peerBindAddress(), worker.bindHost(),
                worker.self().host()), config.peerPort(), config.maxConcurrentRequests(), config.peerLimits());
        WorkerSettings reachable = worker.withPeerPort(peerServer.port());
        ReplayDestinations destinations = ReplayDestinations.of(config, workerConfigs, worker.applicationId());
        Monitor monitor = new Monitor(config, reachable, new TopicDiscovery(context.clusterState(), config,
                Optional.of(new ShareGroupDlqs(() -> Admin.create(reachable.clientConfigs()),
                        new ShareGroupTopicRule(Pattern.compile(destinations.denied())))),
                Optional.of(new SubscriptionWidth(() -> Admin.create(MonitorStreams.adminConfigs(config,
                        reachable))))));
        PeerAuth auth = new PeerAuth(config.peerSecret(), Clock.systemUTC());
        Peers peers = new Peers(reachable, auth, config.forwardTimeout(), config.maxPeerAnswerBytes());
        ClusterReader reader = new ClusterReader(monitor, reachable, peers, auth.enabled(), Clock.systemUTC());
        peerServer.serve(new PeerEndpoint(monitor, reader, auth, new PeerAnswers(config, auth)));
        Answers answers = new Answers(config);
        KnownHosts hosts = KnownHosts.withThisMachine(WorkerSettings.ownHostNames(workerConfigs, worker),
                config.allowedHosts());
        context.configurable().register(new RequestGuardFilter(hosts), RequestGuardFilter.PRIORITY);
        context.configurable().register(new DeadLetterResource(monitor, reader, answers, Clock.systemUTC()));
        Replays replays = new Replays(new WorkerRestClient(worker.selfUrl(), REPLAY_CALL_TIMEOUT),
                worker.clientConfigs(), REPLAY_CALL_TIMEOUT, destinations, config.replayDryRunTimeout(),
                new DryRunSlots(config.replayDryRunMaxConcurrent()));
        context.configurable().register(new ReplayResource(monitor, reader, replays, answers));
        context.configurable().register(new DashboardResource(true));
        context.configurable().register(new BrowserLoginChallenge());
        monitor.start();
        return new RunningMonitor(monitor, peerServer, replays);
    }

    @Override
    public void close() {
        monitor.close();
        peerServer.close();
        replays.close();
    }
}
