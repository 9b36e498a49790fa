package dev.quarantine.connect.rest;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;
import dev.quarantine.connect.rest.peers.PeerLimits;

/**
 * Settings of {@link DeadLetterRestExtension}: worker settings starting with {@code quarantine.monitor.}, parsed once.
 * The worker's own settings it also reads (group.id, bootstrap.servers, client security, its REST address) are
 * derived in {@link WorkerSettings}. The keys and defaults are here; each setting's doc and definition are in the class
 * of its config group ({@link TopicsConfigGroup}, {@link AnswersConfigGroup}, {@link PeersConfigGroup},
 * {@link ReplaysConfigGroup}, {@link StreamsConfigGroup}), and {@link #configDef()} defines the groups in that order.
 */
public final class MonitorConfig extends AbstractConfig {

    public static final String PREFIX = "quarantine.monitor.";

    /** Any Kafka Streams or client setting of the aggregation, with this prefix. */
    public static final String STREAMS_PREFIX = PREFIX + "streams.";

    // documented and defined in TopicsConfigGroup
    public static final String TOPICS_CONFIG = PREFIX + "topics";

    public static final String TOPICS_REGEX_CONFIG = PREFIX + "topics.regex";
    /** The usual dead-letter topic names: {@code *-dlt}, {@code *-dlq}, {@code *.dlq}, {@code dlq.*}. */
    public static final String TOPICS_REGEX_DEFAULT = ".+-dlt|.+-dlq|.+\\.dlq|dlq\\..+";

    public static final String DISCOVER_SHARE_GROUPS_CONFIG = PREFIX + "discover.share.groups";

    public static final String DISCOVER_CONNECTORS_CONFIG = PREFIX + "discover.connectors";

    public static final String DISCOVERY_INTERVAL_MS_CONFIG = PREFIX + "discovery.interval.ms";
    public static final long DISCOVERY_INTERVAL_MS_DEFAULT = 10_000L;

    // documented and defined in AnswersConfigGroup
    public static final String EXPOSE_PAYLOAD_CONFIG = PREFIX + "expose.payload";

    public static final String PAYLOAD_MAX_BYTES_CONFIG = PREFIX + "payload.max.bytes";
    public static final int PAYLOAD_MAX_BYTES_DEFAULT = 1024;
    public static final int PAYLOAD_MAX_BYTES_MAX = 65_536;

    public static final String RECENT_RECORDS_CONFIG = PREFIX + "recent.records";
    public static final int RECENT_RECORDS_DEFAULT = 100;

    public static final String QUERY_RETRY_MS_CONFIG = PREFIX + "query.retry.ms";
    public static final long QUERY_RETRY_MS_DEFAULT = 2_000L;

    public static final String RETRY_AFTER_SECONDS_CONFIG = PREFIX + "retry.after.seconds";
    public static final int RETRY_AFTER_SECONDS_DEFAULT = 2;

    public static final String FORWARD_TIMEOUT_MS_CONFIG = PREFIX + "forward.timeout.ms";
    public static final long FORWARD_TIMEOUT_MS_DEFAULT = 5_000L;

    public static final String CACHE_MS_CONFIG = PREFIX + "cache.ms";
    public static final long CACHE_MS_DEFAULT = 1_000L;

    public static final String MAX_TOPICS_CONFIG = PREFIX + "max.topics";
    public static final int MAX_TOPICS_DEFAULT = 100;

    public static final String MAX_CONCURRENT_REQUESTS_CONFIG = PREFIX + "max.concurrent.requests";
    public static final int MAX_CONCURRENT_REQUESTS_DEFAULT = 8;

    public static final String ALLOWED_HOSTS_CONFIG = PREFIX + "allowed.hosts";

    // documented and defined in PeersConfigGroup
    public static final String PEER_SECRET_CONFIG = PREFIX + "peer.secret";
    public static final int PEER_SECRET_MIN_CHARS = 32;
    /** The least {@code length x log2(different characters)} of a peer secret: what 32 random bytes encoded give. */
    public static final int PEER_SECRET_MIN_BITS = 160;

    public static final String PEER_PORT_CONFIG = PREFIX + "peer.port";

    public static final String PEER_BIND_ADDRESS_CONFIG = PREFIX + "peer.bind.address";

    public static final String PEER_MAX_CONNECTIONS_CONFIG = PREFIX + "peer.max.connections";
    public static final int PEER_MAX_CONNECTIONS_DEFAULT = 256;

    public static final String PEER_MAX_CONNECTIONS_PER_ADDRESS_CONFIG = PREFIX + "peer.max.connections.per.address";
    public static final int PEER_MAX_CONNECTIONS_PER_ADDRESS_DEFAULT = 32;

    public static final String PEER_HEADER_TIMEOUT_MS_CONFIG = PREFIX + "peer.request.header.timeout.ms";
    public static final long PEER_HEADER_TIMEOUT_MS_DEFAULT = 5_000L;

    public static final String PEER_BODY_TIMEOUT_MS_CONFIG = PREFIX + "peer.request.body.timeout.ms";
    public static final long PEER_BODY_TIMEOUT_MS_DEFAULT = 5_000L;

    public static final String PEER_IDLE_TIMEOUT_MS_CONFIG = PREFIX + "peer.idle.timeout.ms";
    public static final long PEER_IDLE_TIMEOUT_MS_DEFAULT = 30_000L;

    public static final String PEER_WRITE_TIMEOUT_MS_CONFIG = PREFIX + "peer.response.timeout.ms";
    public static final long PEER_WRITE_TIMEOUT_MS_DEFAULT = 10_000L;

    // documented and defined in ReplaysConfigGroup
    public static final String REPLAY_DESTINATIONS_ALLOWED_CONFIG = PREFIX + "replay.destinations.allowed";

    public static final String REPLAY_DRY_RUN_TIMEOUT_MS_CONFIG = PREFIX + "replay.dry.run.timeout.ms";
    public static final long REPLAY_DRY_RUN_TIMEOUT_MS_DEFAULT = 10_000L;

    public static final String REPLAY_DRY_RUN_MAX_CONCURRENT_CONFIG = PREFIX + "replay.dry.run.max.concurrent";
    public static final int REPLAY_DRY_RUN_MAX_CONCURRENT_DEFAULT = 2;

    // documented and defined in StreamsConfigGroup
    public static final String APPLICATION_ID_CONFIG = PREFIX + "application.id";

    public static final String BOOTSTRAP_SERVERS_CONFIG = PREFIX + "bootstrap.servers";

    public MonitorConfig(Map<?, ?> workerConfigs) {
        super(configDef(), workerConfigs, false);
    }

    public static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        TopicsConfigGroup.define(def);
        AnswersConfigGroup.define(def);
        PeersConfigGroup.define(def);
        ReplaysConfigGroup.define(def);
        StreamsConfigGroup.define(def);
        return def;
    }

    public List<String> topics() {
        return getList(TOPICS_CONFIG).stream().map(String::trim).filter(t -> !t.isEmpty()).toList();
    }

    public Optional<Pattern> topicsRegex() {
        String regex = getString(TOPICS_REGEX_CONFIG).trim();
        return regex.isEmpty() ? Optional.empty() : Optional.of(Pattern.compile(regex));
    }

    public boolean discoverConnectors() {
        return getBoolean(DISCOVER_CONNECTORS_CONFIG);
    }

    public boolean discoverShareGroups() {
        return getBoolean(DISCOVER_SHARE_GROUPS_CONFIG);
    }

    public Duration discoveryInterval() {
        return Duration.ofMillis(getLong(DISCOVERY_INTERVAL_MS_CONFIG));
    }

    public boolean exposePayload() {
        return getBoolean(EXPOSE_PAYLOAD_CONFIG);
    }

    public int payloadMaxBytes() {
        return getInt(PAYLOAD_MAX_BYTES_CONFIG);
    }

    public int recentRecords() {
        return getInt(RECENT_RECORDS_CONFIG);
    }

    public Duration queryRetry() {
        return Duration.ofMillis(getLong(QUERY_RETRY_MS_CONFIG));
    }

    public int retryAfterSeconds() {
        return getInt(RETRY_AFTER_SECONDS_CONFIG);
    }

    public Duration cache() {
        return Duration.ofMillis(getLong(CACHE_MS_CONFIG));
    }

    Duration forwardTimeout() {
        return Duration.ofMillis(getLong(FORWARD_TIMEOUT_MS_CONFIG));
    }

    /**
     * The largest answer another worker may send: its share of the recent records (each at most two payloads and
     * 6 KiB of bounded strings) and 8 MiB of figures.
     */
    long maxPeerAnswerBytes() {
        long perRecord = 2L * (exposePayload() ? payloadMaxBytes() : 0) + 6 * 1024;
        return recentRecords() * perRecord + (8L << 20);
    }

    int peerPort() {
        return getInt(PEER_PORT_CONFIG);
    }

    /** The address the peer listener binds to when set; empty: the worker's REST interface. */
    public Optional<String> peerBindAddress() {
        String address = getString(PEER_BIND_ADDRESS_CONFIG).trim();
        return address.isEmpty() ? Optional.empty() : Optional.of(address);
    }

    PeerLimits peerLimits() {
        return new PeerLimits(getInt(PEER_MAX_CONNECTIONS_CONFIG), getInt(PEER_MAX_CONNECTIONS_PER_ADDRESS_CONFIG),
                Duration.ofMillis(getLong(PEER_HEADER_TIMEOUT_MS_CONFIG)),
                Duration.ofMillis(getLong(PEER_BODY_TIMEOUT_MS_CONFIG)),
                Duration.ofMillis(getLong(PEER_IDLE_TIMEOUT_MS_CONFIG)),
                Duration.ofMillis(getLong(PEER_WRITE_TIMEOUT_MS_CONFIG)));
    }

    public int maxTopics() {
        return getInt(MAX_TOPICS_CONFIG);
    }

    public int maxConcurrentRequests() {
        return getInt(MAX_CONCURRENT_REQUESTS_CONFIG);
    }

    /** The secret workers prove membership with; empty when this worker trusts no other worker. */
    Optional<Password> peerSecret() {
        return Optional.ofNullable(getPassword(PEER_SECRET_CONFIG));
    }

    /** {@link #ALLOWED_HOSTS_CONFIG}, blank entries left out. */
    List<String> allowedHosts() {
        return getList(ALLOWED_HOSTS_CONFIG).stream().map(String::trim).filter(h -> !h.isEmpty()).toList();
    }

    /** {@link #REPLAY_DESTINATIONS_ALLOWED_CONFIG} as written: a regex, empty for none. */
    public String replayDestinationsAllowed() {
        return getString(REPLAY_DESTINATIONS_ALLOWED_CONFIG).trim();
    }

    Duration replayDryRunTimeout() {
        return Duration.ofMillis(getLong(REPLAY_DRY_RUN_TIMEOUT_MS_CONFIG));
    }

    int replayDryRunMaxConcurrent() {
        return getInt(REPLAY_DRY_RUN_MAX_CONCURRENT_CONFIG);
    }

    Optional<String> applicationId() {
        String id = getString(APPLICATION_ID_CONFIG).trim();
        return id.isEmpty() ? Optional.empty() : Optional.of(id);
    }

    Optional<String> bootstrapServers() {
        String servers = getString(BOOTSTRAP_SERVERS_CONFIG).trim();
        return servers.isEmpty() ? Optional.empty() : Optional.of(servers);
    }

    /** Settings given with {@link #STREAMS_PREFIX}, without it. */
    public Map<String, Object> streamsOverrides() {
        return new HashMap<>(originalsWithPrefix(STREAMS_PREFIX));
    }
}
