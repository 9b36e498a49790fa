package dev.quarantine.connect.rest;

import static dev.quarantine.connect.rest.MonitorConfig.ALLOWED_HOSTS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.CACHE_MS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.CACHE_MS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.EXPOSE_PAYLOAD_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.FORWARD_TIMEOUT_MS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.FORWARD_TIMEOUT_MS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.MAX_CONCURRENT_REQUESTS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.MAX_CONCURRENT_REQUESTS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.MAX_TOPICS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.MAX_TOPICS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.PAYLOAD_MAX_BYTES_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.PAYLOAD_MAX_BYTES_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.PAYLOAD_MAX_BYTES_MAX;
import static dev.quarantine.connect.rest.MonitorConfig.PREFIX;
import static dev.quarantine.connect.rest.MonitorConfig.QUERY_RETRY_MS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.QUERY_RETRY_MS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.RECENT_RECORDS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.RECENT_RECORDS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.RETRY_AFTER_SECONDS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.RETRY_AFTER_SECONDS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.TOPICS_REGEX_CONFIG;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The {@link MonitorConfig} settings of the group "REST answers": what the REST answers show and keep, how long they
 * wait, how many run at once, and under which host names. Their docs and definitions; the keys and defaults stay in
 * {@link MonitorConfig}, where the code and the tests name them.
 */
final class AnswersConfigGroup {

    static final String NAME = "REST answers";

    private static final String EXPOSE_PAYLOAD_DOC = "Whether /dead-letters/{topic}/records shows record keys and"
            + " values (base64) and error messages (which often quote the payload). Off by default: then keys, values"
            + " and error messages are never even kept by the monitor, and a record shows its error class only. Turn"
            + " it on only when everyone who can reach the worker's REST API may read the data.";

    private static final String PAYLOAD_MAX_BYTES_DOC = "With " + EXPOSE_PAYLOAD_CONFIG + "=true, at most this many"
            + " bytes of each key and value are kept and shown (at most 64 KiB, so that a kept record stays far"
            + " below the 1 MB a changelog record may have).";

    private static final String RECENT_RECORDS_DOC = "How many of the most recent records are kept per dead-letter"
            + " topic partition, for /dead-letters/{topic}/records (whose limit is at most this).";

    private static final String MAX_TOPICS_DOC = "At most this many dead-letter topics are kept in memory (per"
            + " partition number). Records of further topics (for example matched by a broad " + TOPICS_REGEX_CONFIG
            + ") are only counted as over the cap, with a log line and a 'capped' field in the answers. Memory kept,"
            + " at most: max.topics x partitions per topic x " + PREFIX + "recent.records x (2 x "
            + PREFIX + "payload.max.bytes when exposed + 6 KiB).";

    private static final String MAX_CONCURRENT_REQUESTS_DOC = "At most this many monitor requests of users (and as"
            + " many of other workers) are answered at the same time on this worker; a request beyond them waits"
            + " up to " + PREFIX + "query.retry.ms, then gets 503 with Retry-After. It keeps the worker's REST"
            + " threads for Kafka Connect's own API.";

    private static final String ALLOWED_HOSTS_DOC = "Host names (as clients send them in the Host header) under which"
            + " browsers and scripts reach this worker's /dead-letters endpoints and dashboard, besides the ones always"
            + " known: IP addresses, localhost, the worker's advertised host name, its listeners' hosts and this"
            + " machine's host names. A request with any other Host is refused 403: the defence against DNS"
            + " rebinding, where a page of another domain has its name resolve to the worker (over plain HTTP a"
            + " browser's same-origin GET carries nothing that marks it as a browser's, so every request is checked)."
            + " Entries: a name (connect.example.com), or *. and a domain of two labels at least (*.example.com) for"
            + " every name under it. Add the names of a load balancer or DNS alias the dashboard or scripts use.";

    private static final String QUERY_RETRY_MS_DOC = "How long a request waits for a state store that is not ready"
            + " (a rebalance, a restore) before answering 503 with Retry-After.";

    private static final String RETRY_AFTER_SECONDS_DOC = "The Retry-After header of a 503 answer.";

    private static final String FORWARD_TIMEOUT_MS_DOC = "Deadline of a whole request to another worker of the"
            + " aggregation (connecting, waiting for and reading its answer), for its share of the figures or for a"
            + " store that moved there. A worker that does not answer in time makes the answer a 503 with"
            + " Retry-After.";

    private static final String CACHE_MS_DOC = "How long cluster-wide figures (GET /dead-letters and"
            + " GET /dead-letters/{topic}) are served from the last complete answer before they are read again from"
            + " every worker. Concurrent requests share one read. 0 reads on every request.";

    private AnswersConfigGroup() {
    }

    static void define(ConfigDef def) {
        new MonitorConfigGroup(def, NAME)
                .define(EXPOSE_PAYLOAD_CONFIG, Type.BOOLEAN, false, null, Importance.HIGH, EXPOSE_PAYLOAD_DOC,
                        Width.SHORT, "Expose keys and values")
                .define(PAYLOAD_MAX_BYTES_CONFIG, Type.INT, PAYLOAD_MAX_BYTES_DEFAULT, Range.between(0,
                        PAYLOAD_MAX_BYTES_MAX), Importance.LOW, PAYLOAD_MAX_BYTES_DOC, Width.SHORT,
                        "Payload bytes shown")
                .count(RECENT_RECORDS_CONFIG, RECENT_RECORDS_DEFAULT, 1000, RECENT_RECORDS_DOC, "Recent records kept")
                .define(QUERY_RETRY_MS_CONFIG, Type.LONG, QUERY_RETRY_MS_DEFAULT, Range.between(0L, 60_000L),
                        Importance.LOW, QUERY_RETRY_MS_DOC, Width.SHORT, "Store wait")
                .define(RETRY_AFTER_SECONDS_CONFIG, Type.INT, RETRY_AFTER_SECONDS_DEFAULT, Range.between(1, 300),
                        Importance.LOW, RETRY_AFTER_SECONDS_DOC, Width.SHORT, "Retry-After")
                .durationMs(FORWARD_TIMEOUT_MS_CONFIG, FORWARD_TIMEOUT_MS_DEFAULT, 60_000L, FORWARD_TIMEOUT_MS_DOC,
                        "Forward timeout")
                .define(CACHE_MS_CONFIG, Type.LONG, CACHE_MS_DEFAULT, Range.between(0L, 60_000L), Importance.LOW,
                        CACHE_MS_DOC, Width.SHORT, "Figures cache")
                .count(MAX_TOPICS_CONFIG, MAX_TOPICS_DEFAULT, 10_000, MAX_TOPICS_DOC, "Topics kept at most")
                .count(MAX_CONCURRENT_REQUESTS_CONFIG, MAX_CONCURRENT_REQUESTS_DEFAULT, 1_000,
                        MAX_CONCURRENT_REQUESTS_DOC, "Concurrent requests")
                .define(ALLOWED_HOSTS_CONFIG, Type.LIST, "", new MonitorValidators.HostNames(), Importance.MEDIUM,
                        ALLOWED_HOSTS_DOC, Width.LONG, "Allowed host names");
    }
}
