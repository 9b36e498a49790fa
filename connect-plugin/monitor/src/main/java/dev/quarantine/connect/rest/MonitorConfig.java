package dev.quarantine.connect.rest;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;
import dev.quarantine.connect.rest.peers.PeerLimits;

/**
 * Settings of {@link DeadLetterRestExtension}: worker settings starting with {@code quarantine.monitor.}, parsed once.
 * The worker's own settings it also reads (group.id, bootstrap.servers, client security, its REST address) are
 * derived in {@link WorkerSettings}.
 */
public final class MonitorConfig extends AbstractConfig {

    public static final String PREFIX = "quarantine.monitor.";
    static final String TOPICS_GROUP = "Dead-letter topics";
    static final String ANSWERS_GROUP = "REST answers";
    static final String STREAMS_GROUP = "Aggregation (Kafka Streams)";
    static final String PEERS_GROUP = "Workers of the aggregation";
    static final String REPLAYS_GROUP = "Replays";

    public static final String TOPICS_CONFIG = PREFIX + "topics";
    public static final String TOPICS_DOC = "Dead-letter topics to monitor besides those the cluster's connectors"
            + " name (errors.deadletterqueue.topic.name, and dlq.topic.name of the transactional sink). A topic"
            + " that does not exist yet is picked up when it is created.";

    public static final String TOPICS_REGEX_CONFIG = PREFIX + "topics.regex";
    public static final String TOPICS_REGEX_DOC = "A Java regular expression: every topic of the cluster whose whole"
            + " name matches it is monitored too. The default matches the usual dead-letter names: Spring Kafka's"
            + " <topic>-dlt, <topic>-dlq, <topic>.dlq, and dlq.<topic> (the default prefix of share groups' dead-letter"
            + " topics). Empty: none.";
    /** The usual dead-letter topic names: {@code *-dlt}, {@code *-dlq}, {@code *.dlq}, {@code dlq.*}. */
    public static final String TOPICS_REGEX_DEFAULT = ".+-dlt|.+-dlq|.+\\.dlq|dlq\\..+";

    public static final String DISCOVER_SHARE_GROUPS_CONFIG = PREFIX + "discover.share.groups";
    public static final String DISCOVER_SHARE_GROUPS_DOC = "Whether to monitor the dead-letter topics the cluster's"
            + " share groups name in their errors.deadletterqueue.topic.name group config (KIP-1191, Kafka 4.4), read"
            + " with the Admin API every discovery interval (the worker's principal needs Describe on the groups).";

    public static final String DISCOVER_CONNECTORS_CONFIG = PREFIX + "discover.connectors";
    public static final String DISCOVER_CONNECTORS_DOC = "Whether to monitor the dead-letter topics named in the"
            + " configs of the cluster's connectors, read through the worker's cluster state.";

    public static final String DISCOVERY_INTERVAL_MS_CONFIG = PREFIX + "discovery.interval.ms";
    public static final long DISCOVERY_INTERVAL_MS_DEFAULT = 10_000L;
    public static final String DISCOVERY_INTERVAL_MS_DOC = "How often the connector configs are read for new"
            + " dead-letter topics. When the set changes, the aggregation restarts (a few seconds of 503 answers);"
            + " a new set of topics starts a new aggregation (application.id suffixed with a digest of the set), rebuilt from the topics' contents.";

    public static final String EXPOSE_PAYLOAD_CONFIG = PREFIX + "expose.payload";
    public static final String EXPOSE_PAYLOAD_DOC = "Whether /dead-letters/{topic}/records shows record keys and"
            + " values (base64) and error messages (which often quote the payload). Off by default: then keys, values"
            + " and error messages are never even kept by the monitor, and a record shows its error class only. Turn"
            + " it on only when everyone who can reach the worker's REST API may read the data.";

    public static final String PAYLOAD_MAX_BYTES_CONFIG = PREFIX + "payload.max.bytes";
    public static final int PAYLOAD_MAX_BYTES_DEFAULT = 1024;
    public static final int PAYLOAD_MAX_BYTES_MAX = 65_536;
    public static final String PAYLOAD_MAX_BYTES_DOC = "With " + EXPOSE_PAYLOAD_CONFIG + "=true, at most this many"
            + " bytes of each key and value are kept and shown (at most 64 KiB, so that a kept record stays far"
            + " below the 1 MB a changelog record may have).";

    public static final String RECENT_RECORDS_CONFIG = PREFIX + "recent.records";
    public static final int RECENT_RECORDS_DEFAULT = 100;
    public static final String RECENT_RECORDS_DOC = "How many of the most recent records are kept per dead-letter"
            + " topic partition, for /dead-letters/{topic}/records (whose limit is at most this).";

    public static final String APPLICATION_ID_CONFIG = PREFIX + "application.id";
    public static final String APPLICATION_ID_DOC = "application.id of the embedded Kafka Streams aggregation."
            + " Empty: the worker's group.id followed by -dead-letter-monitor, so every worker of a Connect cluster"
            + " joins the same aggregation.";

    public static final String BOOTSTRAP_SERVERS_CONFIG = PREFIX + "bootstrap.servers";
    public static final String BOOTSTRAP_SERVERS_DOC = "The cluster holding the dead-letter topics. Empty: the"
            + " worker's own bootstrap.servers and client security settings (security.*, sasl.*, ssl.*).";

    public static final String MAX_TOPICS_CONFIG = PREFIX + "max.topics";
    public static final int MAX_TOPICS_DEFAULT = 100;
    public static final String MAX_TOPICS_DOC = "At most this many dead-letter topics are kept in memory (per partition"
            + " number). Records of further topics (for example matched by a broad " + TOPICS_REGEX_CONFIG + ")"
            + " are only counted as over the cap, with a log line and a 'capped' field in the answers. Memory kept,"
            + " at most: max.topics x partitions per topic x " + PREFIX + "recent.records x (2 x "
            + PREFIX + "payload.max.bytes when exposed + 6 KiB).";

    public static final String MAX_CONCURRENT_REQUESTS_CONFIG = PREFIX + "max.concurrent.requests";
    public static final int MAX_CONCURRENT_REQUESTS_DEFAULT = 8;
    public static final String MAX_CONCURRENT_REQUESTS_DOC = "At most this many monitor requests of users (and as"
            + " many of other workers) are answered at the same time on this worker; a request beyond them waits"
            + " up to " + PREFIX + "query.retry.ms, then gets 503 with Retry-After. It keeps the worker's REST"
            + " threads for Kafka Connect's own API.";

    public static final String PEER_SECRET_CONFIG = PREFIX + "peer.secret";
    public static final int PEER_SECRET_MIN_CHARS = 32;
    /** The least {@code length x log2(different characters)} of a peer secret: what 32 random bytes encoded give. */
    public static final int PEER_SECRET_MIN_BITS = 160;
    public static final String PEER_SECRET_DOC = "A secret every worker of the Connect cluster is configured with"
            + " (the same on every worker): 32 random bytes, base64 or hex, e.g. the output of openssl rand -base64 32."
            + " At least " + PEER_SECRET_MIN_CHARS + " characters, and its length times log2 of the number of"
            + " different characters at least " + PEER_SECRET_MIN_BITS + ", which random bytes so encoded always give"
            + " and a phrase, a name or a repeated pattern does not: one captured request is enough to guess a weak"
            + " secret offline."
            + " Workers sign the requests for each other's share of the figures, and the answers, with keys derived"
            + " from it (HKDF-SHA256, HMAC-SHA256); a user's credentials never go to another worker. Required when"
            + " more than one worker runs the monitor: without it a worker serves only the figures it holds itself,"
            + " says so in the answer (complete: false) and answers no other worker's request (403). A"
            + " ${provider:path:key} config provider reference keeps it out of the worker's properties file.";

    public static final String PEER_PORT_CONFIG = PREFIX + "peer.port";
    public static final String PEER_PORT_DOC = "Port of the listener where other workers ask this one for its share of"
            + " the figures (plain HTTP, every request and answer signed with keys derived from " + PEER_SECRET_CONFIG
            + "), advertised with the worker's REST host through the aggregation's group metadata. It is apart from"
            + " the REST API so that the worker's REST authentication never asks a worker for a credential to send."
            + " 0: any free port; set a fixed port where a firewall stands between workers.";

    public static final String PEER_BIND_ADDRESS_CONFIG = PREFIX + "peer.bind.address";
    public static final String PEER_BIND_ADDRESS_DOC = "The address the peer listener binds to. Empty: the host of"
            + " the worker's REST listener (the first of listeners) or, when that listens on every interface, the"
            + " worker's advertised REST host (rest.advertised.host.name, else this host's name), the address other"
            + " workers are told. 0.0.0.0 binds every interface.";

    public static final String PEER_MAX_CONNECTIONS_CONFIG = PREFIX + "peer.max.connections";
    public static final int PEER_MAX_CONNECTIONS_DEFAULT = 256;
    public static final String PEER_MAX_CONNECTIONS_DOC = "At most this many connections are open on the peer"
            + " listener; one more takes the place of the oldest that has not sent a whole request (answered 503 with"
            + " Retry-After and closed), or, when every open one is being answered or kept alive after a signed answer,"
            + " is answered 503 and closed at once. Each holds a file descriptor and at most 8 KiB until its request"
            + " is read.";

    public static final String PEER_MAX_CONNECTIONS_PER_ADDRESS_CONFIG = PREFIX + "peer.max.connections.per.address";
    public static final int PEER_MAX_CONNECTIONS_PER_ADDRESS_DEFAULT = 32;
    public static final String PEER_MAX_CONNECTIONS_PER_ADDRESS_DOC = "At most this many of the peer listener's open"
            + " connections may come from one address (a worker asks another with a few at a time); one more from it is"
            + " answered 503 (Retry-After) and closed at once, so that one host flooding the port cannot take the"
            + " connections the other workers need.";

    public static final String PEER_HEADER_TIMEOUT_MS_CONFIG = PREFIX + "peer.request.header.timeout.ms";
    public static final long PEER_HEADER_TIMEOUT_MS_DEFAULT = 5_000L;
    public static final String PEER_HEADER_TIMEOUT_MS_DOC = "From a new connection's accept (on a connection kept"
            + " alive, from the next request's first byte) to the end of a request's headers on the peer listener"
            + " (at most 8 KiB): a request slower than this is answered 408 and its connection closed, however it"
            + " trickles.";

    public static final String PEER_BODY_TIMEOUT_MS_CONFIG = PREFIX + "peer.request.body.timeout.ms";
    public static final long PEER_BODY_TIMEOUT_MS_DEFAULT = 5_000L;
    public static final String PEER_BODY_TIMEOUT_MS_DOC = "From the end of a peer request's headers to the end of"
            + " its body (at most 16 KiB; the monitor's own requests have none): slower is answered 408 and closed.";

    public static final String PEER_IDLE_TIMEOUT_MS_CONFIG = PREFIX + "peer.idle.timeout.ms";
    public static final long PEER_IDLE_TIMEOUT_MS_DEFAULT = 30_000L;
    public static final String PEER_IDLE_TIMEOUT_MS_DOC = "A connection to the peer listener kept alive after a"
            + " signed answer, with no next request in progress, is closed after this long (any other answer closes"
            + " the connection at once).";

    public static final String PEER_WRITE_TIMEOUT_MS_CONFIG = PREFIX + "peer.response.timeout.ms";
    public static final long PEER_WRITE_TIMEOUT_MS_DEFAULT = 10_000L;
    public static final String PEER_WRITE_TIMEOUT_MS_DOC = "How long the peer listener waits for a peer to take"
            + " its answer before closing the connection.";

    public static final String ALLOWED_HOSTS_CONFIG = PREFIX + "allowed.hosts";
    public static final String ALLOWED_HOSTS_DOC = "Host names (as clients send them in the Host header) under which"
            + " browsers and scripts reach this worker's /dead-letters endpoints and dashboard, besides the ones always"
            + " known: IP addresses, localhost, the worker's advertised host name, its listeners' hosts and this"
            + " machine's host names. A request with any other Host is refused 403: the defence against DNS"
            + " rebinding, where a page of another domain has its name resolve to the worker (over plain HTTP a"
            + " browser's same-origin GET carries nothing that marks it as a browser's, so every request is checked)."
            + " Entries: a name (connect.example.com), or *. and a domain of two labels at least (*.example.com) for"
            + " every name under it. Add the names of a load balancer or DNS alias the dashboard or scripts use.";

    public static final String STREAMS_PREFIX = PREFIX + "streams.";

    public static final String QUERY_RETRY_MS_CONFIG = PREFIX + "query.retry.ms";
    public static final long QUERY_RETRY_MS_DEFAULT = 2_000L;
    public static final String QUERY_RETRY_MS_DOC = "How long a request waits for a state store that is not ready"
            + " (a rebalance, a restore) before answering 503 with Retry-After.";

    public static final String RETRY_AFTER_SECONDS_CONFIG = PREFIX + "retry.after.seconds";
    public static final int RETRY_AFTER_SECONDS_DEFAULT = 2;
    public static final String RETRY_AFTER_SECONDS_DOC = "The Retry-After header of a 503 answer.";

    public static final String FORWARD_TIMEOUT_MS_CONFIG = PREFIX + "forward.timeout.ms";
    public static final long FORWARD_TIMEOUT_MS_DEFAULT = 5_000L;
    public static final String FORWARD_TIMEOUT_MS_DOC = "Deadline of a whole request to another worker of the"
            + " aggregation (connecting, waiting for and reading its answer), for its share of the figures or for a"
            + " store that moved there. A worker that does not answer in time makes the answer a 503 with"
            + " Retry-After.";

    public static final String CACHE_MS_CONFIG = PREFIX + "cache.ms";
    public static final long CACHE_MS_DEFAULT = 1_000L;
    public static final String CACHE_MS_DOC = "How long cluster-wide figures (GET /dead-letters and"
            + " GET /dead-letters/{topic}) are served from the last complete answer before they are read again from"
            + " every worker. Concurrent requests share one read. 0 reads on every request.";

    public static final String REPLAY_DESTINATIONS_ALLOWED_CONFIG = PREFIX + "replay.destinations.allowed";
    public static final String REPLAY_DESTINATIONS_ALLOWED_DOC = "A Java regular expression: the topics a replay"
            + " started with POST /dead-letters/{topic}/replays may write when a dead letter's own headers name its"
            + " destination (destination 'original', the default, or 'source'); a topic must match it in full. It"
            + " becomes the replay connector's replay.destinations.allowed, and a request cannot change it. Empty (the"
            + " default): no destination a header names is written; such a replay is refused with 400 naming this"
            + " setting, a dry run shows those dead letters as refused, and only a replay to one topic the request"
            + " names runs. That is the safe default on a shared cluster: whoever can write to a dead-letter topic"
            + " chooses its headers, and the replay writes with the worker's Kafka principal, so allow only the"
            + " topics those writers could write themselves (for example orders|payments\\..*). Whatever it allows,"
            + " a replay never writes a Kafka-internal topic (__*), this worker's config, offset and status topics,"
            + " the monitor's own topics (<application.id>-*), the replays' progress topic, a parking topic (*.parking)"
            + " or the dead-letter topic replayed: such a dead letter is counted as refused.";

    public static final String REPLAY_DRY_RUN_TIMEOUT_MS_CONFIG = PREFIX + "replay.dry.run.timeout.ms";
    public static final long REPLAY_DRY_RUN_TIMEOUT_MS_DEFAULT = 10_000L;
    public static final String REPLAY_DRY_RUN_TIMEOUT_MS_DOC = "How long a dry run (POST"
            + " /dead-letters/{topic}/replays with \"dryRun\": true) may read the dead-letter topic before it answers"
            + " with what it read so far (complete: false).";

    public static final String REPLAY_DRY_RUN_MAX_CONCURRENT_CONFIG = PREFIX + "replay.dry.run.max.concurrent";
    public static final int REPLAY_DRY_RUN_MAX_CONCURRENT_DEFAULT = 2;
    public static final String REPLAY_DRY_RUN_MAX_CONCURRENT_DOC = "How many dry runs this worker runs at once; each"
            + " opens a consumer and an admin client and reads for up to " + REPLAY_DRY_RUN_TIMEOUT_MS_CONFIG + ". One"
            + " more is answered 429 with Retry-After at once, naming this setting.";

    public MonitorConfig(Map<?, ?> workerConfigs) {
        super(configDef(), workerConfigs, false);
    }

    public static ConfigDef configDef() {
        int order = 0;
        ConfigDef def = new ConfigDef()
                .define(TOPICS_CONFIG, Type.LIST, "", new ConfigDef.NonNullValidator(), Importance.HIGH, TOPICS_DOC,
                        TOPICS_GROUP, ++order, Width.LONG, "Extra dead-letter topics")
                .define(TOPICS_REGEX_CONFIG, Type.STRING, TOPICS_REGEX_DEFAULT, new MonitorValidators.Regex(),
                        Importance.MEDIUM,
                        TOPICS_REGEX_DOC, TOPICS_GROUP, ++order, Width.LONG, "Dead-letter topic pattern")
                .define(DISCOVER_CONNECTORS_CONFIG, Type.BOOLEAN, true, null, Importance.MEDIUM,
                        DISCOVER_CONNECTORS_DOC, TOPICS_GROUP, ++order, Width.SHORT, "Discover from connectors")
                .define(DISCOVER_SHARE_GROUPS_CONFIG, Type.BOOLEAN, true, null, Importance.MEDIUM,
                        DISCOVER_SHARE_GROUPS_DOC, TOPICS_GROUP, ++order, Width.SHORT, "Discover from share groups")
                .define(DISCOVERY_INTERVAL_MS_CONFIG, Type.LONG, DISCOVERY_INTERVAL_MS_DEFAULT, Range.between(100L,
                        3_600_000L), Importance.LOW, DISCOVERY_INTERVAL_MS_DOC, TOPICS_GROUP, ++order, Width.SHORT,
                        "Discovery interval");
        order = 0;
        def.define(EXPOSE_PAYLOAD_CONFIG, Type.BOOLEAN, false, null, Importance.HIGH, EXPOSE_PAYLOAD_DOC,
                        ANSWERS_GROUP, ++order, Width.SHORT, "Expose keys and values")
                .define(PAYLOAD_MAX_BYTES_CONFIG, Type.INT, PAYLOAD_MAX_BYTES_DEFAULT, Range.between(0,
                        PAYLOAD_MAX_BYTES_MAX),
                        Importance.LOW, PAYLOAD_MAX_BYTES_DOC, ANSWERS_GROUP, ++order, Width.SHORT,
                        "Payload bytes shown")
                .define(RECENT_RECORDS_CONFIG, Type.INT, RECENT_RECORDS_DEFAULT, Range.between(1, 1000),
                        Importance.LOW, RECENT_RECORDS_DOC, ANSWERS_GROUP, ++order, Width.SHORT, "Recent records kept")
                .define(QUERY_RETRY_MS_CONFIG, Type.LONG, QUERY_RETRY_MS_DEFAULT, Range.between(0L, 60_000L),
                        Importance.LOW, QUERY_RETRY_MS_DOC, ANSWERS_GROUP, ++order, Width.SHORT, "Store wait")
                .define(RETRY_AFTER_SECONDS_CONFIG, Type.INT, RETRY_AFTER_SECONDS_DEFAULT, Range.between(1, 300),
                        Importance.LOW, RETRY_AFTER_SECONDS_DOC, ANSWERS_GROUP, ++order, Width.SHORT, "Retry-After")
                .define(FORWARD_TIMEOUT_MS_CONFIG, Type.LONG, FORWARD_TIMEOUT_MS_DEFAULT, Range.between(100L,
                        60_000L), Importance.LOW, FORWARD_TIMEOUT_MS_DOC, ANSWERS_GROUP, ++order, Width.SHORT,
                        "Forward timeout")
                .define(CACHE_MS_CONFIG, Type.LONG, CACHE_MS_DEFAULT, Range.between(0L, 60_000L), Importance.LOW,
                        CACHE_MS_DOC, ANSWERS_GROUP, ++order, Width.SHORT, "Figures cache")
                .define(MAX_TOPICS_CONFIG, Type.INT, MAX_TOPICS_DEFAULT, Range.between(1, 10_000), Importance.LOW,
                        MAX_TOPICS_DOC, ANSWERS_GROUP, ++order, Width.SHORT, "Topics kept at most")
                .define(MAX_CONCURRENT_REQUESTS_CONFIG, Type.INT, MAX_CONCURRENT_REQUESTS_DEFAULT, Range.between(1,
                        1_000), Importance.LOW, MAX_CONCURRENT_REQUESTS_DOC, ANSWERS_GROUP, ++order, Width.SHORT,
                        "Concurrent requests")
                .define(ALLOWED_HOSTS_CONFIG, Type.LIST, "", new MonitorValidators.HostNames(), Importance.MEDIUM,
                        ALLOWED_HOSTS_DOC, ANSWERS_GROUP, ++order, Width.LONG, "Allowed host names");
        order = 0;
        def.define(PEER_SECRET_CONFIG, Type.PASSWORD, null, new MonitorValidators.Secret(), Importance.HIGH,
                        PEER_SECRET_DOC, PEERS_GROUP, ++order, Width.MEDIUM, "Peer secret")
                .define(PEER_PORT_CONFIG, Type.INT, 0, Range.between(0, 65_535), Importance.MEDIUM, PEER_PORT_DOC,
                        PEERS_GROUP, ++order, Width.SHORT, "Peer port")
                .define(PEER_BIND_ADDRESS_CONFIG, Type.STRING, "", new MonitorValidators.BindAddress(),
                        Importance.MEDIUM, PEER_BIND_ADDRESS_DOC, PEERS_GROUP, ++order, Width.MEDIUM,
                        "Peer bind address")
                .define(PEER_MAX_CONNECTIONS_CONFIG, Type.INT, PEER_MAX_CONNECTIONS_DEFAULT, Range.between(1,
                        10_000), Importance.LOW, PEER_MAX_CONNECTIONS_DOC, PEERS_GROUP, ++order, Width.SHORT,
                        "Peer connections")
                .define(PEER_MAX_CONNECTIONS_PER_ADDRESS_CONFIG, Type.INT, PEER_MAX_CONNECTIONS_PER_ADDRESS_DEFAULT,
                        Range.between(1, 10_000), Importance.LOW, PEER_MAX_CONNECTIONS_PER_ADDRESS_DOC, PEERS_GROUP,
                        ++order, Width.SHORT, "Peer connections per address")
                .define(PEER_HEADER_TIMEOUT_MS_CONFIG, Type.LONG, PEER_HEADER_TIMEOUT_MS_DEFAULT, Range.between(100L,
                        60_000L), Importance.LOW, PEER_HEADER_TIMEOUT_MS_DOC, PEERS_GROUP, ++order, Width.SHORT,
                        "Peer header timeout")
                .define(PEER_BODY_TIMEOUT_MS_CONFIG, Type.LONG, PEER_BODY_TIMEOUT_MS_DEFAULT, Range.between(100L,
                        60_000L), Importance.LOW, PEER_BODY_TIMEOUT_MS_DOC, PEERS_GROUP, ++order, Width.SHORT,
                        "Peer body timeout")
                .define(PEER_IDLE_TIMEOUT_MS_CONFIG, Type.LONG, PEER_IDLE_TIMEOUT_MS_DEFAULT, Range.between(100L,
                        600_000L), Importance.LOW, PEER_IDLE_TIMEOUT_MS_DOC, PEERS_GROUP, ++order, Width.SHORT,
                        "Peer idle timeout")
                .define(PEER_WRITE_TIMEOUT_MS_CONFIG, Type.LONG, PEER_WRITE_TIMEOUT_MS_DEFAULT, Range.between(100L,
                        60_000L), Importance.LOW, PEER_WRITE_TIMEOUT_MS_DOC, PEERS_GROUP, ++order, Width.SHORT,
                        "Peer answer timeout");
        order = 0;
        def.define(REPLAY_DESTINATIONS_ALLOWED_CONFIG, Type.STRING, "", new MonitorValidators.Regex(),
                        Importance.HIGH, REPLAY_DESTINATIONS_ALLOWED_DOC, REPLAYS_GROUP, ++order, Width.LONG,
                        "Replay destinations allowed")
                .define(REPLAY_DRY_RUN_TIMEOUT_MS_CONFIG, Type.LONG, REPLAY_DRY_RUN_TIMEOUT_MS_DEFAULT,
                        Range.between(100L, 60_000L), Importance.LOW, REPLAY_DRY_RUN_TIMEOUT_MS_DOC, REPLAYS_GROUP,
                        ++order, Width.SHORT, "Dry run time limit")
                .define(REPLAY_DRY_RUN_MAX_CONCURRENT_CONFIG, Type.INT, REPLAY_DRY_RUN_MAX_CONCURRENT_DEFAULT,
                        Range.between(1, 64), Importance.LOW, REPLAY_DRY_RUN_MAX_CONCURRENT_DOC, REPLAYS_GROUP,
                        ++order, Width.SHORT, "Dry runs at once");
        order = 0;
        def.define(APPLICATION_ID_CONFIG, Type.STRING, "", new ConfigDef.NonNullValidator(), Importance.LOW,
                        APPLICATION_ID_DOC, STREAMS_GROUP, ++order, Width.MEDIUM, "Streams application.id")
                .define(BOOTSTRAP_SERVERS_CONFIG, Type.STRING, "", new ConfigDef.NonNullValidator(), Importance.LOW,
                        BOOTSTRAP_SERVERS_DOC + " Any Kafka Streams or client setting can be given with the prefix "
                                + STREAMS_PREFIX + " (for example " + STREAMS_PREFIX + "num.stream.threads).",
                        STREAMS_GROUP, ++order, Width.LONG, "Dead-letter cluster");
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
