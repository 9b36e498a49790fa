package dev.quarantine.connect.rest;

import static dev.quarantine.connect.rest.MonitorConfig.PEER_BIND_ADDRESS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_BODY_TIMEOUT_MS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_BODY_TIMEOUT_MS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_HEADER_TIMEOUT_MS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_HEADER_TIMEOUT_MS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_IDLE_TIMEOUT_MS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_IDLE_TIMEOUT_MS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_MAX_CONNECTIONS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_MAX_CONNECTIONS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_MAX_CONNECTIONS_PER_ADDRESS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_MAX_CONNECTIONS_PER_ADDRESS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_PORT_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_SECRET_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_SECRET_MIN_BITS;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_SECRET_MIN_CHARS;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_WRITE_TIMEOUT_MS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.PEER_WRITE_TIMEOUT_MS_DEFAULT;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The {@link MonitorConfig} settings of the group "Workers of the aggregation": how the workers of the aggregation
 * prove themselves to each other, and the limits of the peer listener. Their docs and definitions; the keys and
 * defaults stay in {@link MonitorConfig}, where the code and the tests name them.
 */
final class PeersConfigGroup {

    static final String NAME = "Workers of the aggregation";

    private static final String PEER_SECRET_DOC = "A secret every worker of the Connect cluster is configured with"
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

    private static final String PEER_PORT_DOC = "Port of the listener where other workers ask this one for its share of"
            + " the figures (plain HTTP, every request and answer signed with keys derived from " + PEER_SECRET_CONFIG
            + "), advertised with the worker's REST host through the aggregation's group metadata. It is apart from"
            + " the REST API so that the worker's REST authentication never asks a worker for a credential to send."
            + " 0: any free port; set a fixed port where a firewall stands between workers.";

    private static final String PEER_BIND_ADDRESS_DOC = "The address the peer listener binds to. Empty: the host of"
            + " the worker's REST listener (the first of listeners) or, when that listens on every interface, the"
            + " worker's advertised REST host (rest.advertised.host.name, else this host's name), the address other"
            + " workers are told. 0.0.0.0 binds every interface.";

    private static final String PEER_MAX_CONNECTIONS_DOC = "At most this many connections are open on the peer"
            + " listener; one more takes the place of the oldest that has not sent a whole request (answered 503 with"
            + " Retry-After and closed), or, when every open one is being answered or kept alive after a signed answer,"
            + " is answered 503 and closed at once. Each holds a file descriptor and at most 8 KiB until its request"
            + " is read.";

    private static final String PEER_MAX_CONNECTIONS_PER_ADDRESS_DOC = "At most this many of the peer listener's open"
            + " connections may come from one address (a worker asks another with a few at a time); one more from it is"
            + " answered 503 (Retry-After) and closed at once, so that one host flooding the port cannot take the"
            + " connections the other workers need.";

    private static final String PEER_HEADER_TIMEOUT_MS_DOC = "From a new connection's accept (on a connection kept"
            + " alive, from the next request's first byte) to the end of a request's headers on the peer listener"
            + " (at most 8 KiB): a request slower than this is answered 408 and its connection closed, however it"
            + " trickles.";

    private static final String PEER_BODY_TIMEOUT_MS_DOC = "From the end of a peer request's headers to the end of"
            + " its body (at most 16 KiB; the monitor's own requests have none): slower is answered 408 and closed.";

    private static final String PEER_IDLE_TIMEOUT_MS_DOC = "A connection to the peer listener kept alive after a"
            + " signed answer, with no next request in progress, is closed after this long (any other answer closes"
            + " the connection at once).";

    private static final String PEER_WRITE_TIMEOUT_MS_DOC = "How long the peer listener waits for a peer to take"
            + " its answer before closing the connection.";

    private PeersConfigGroup() {
    }

    static void define(ConfigDef def) {
        new MonitorConfigGroup(def, NAME)
                .define(PEER_SECRET_CONFIG, Type.PASSWORD, null, new MonitorValidators.Secret(), Importance.HIGH,
                        PEER_SECRET_DOC, Width.MEDIUM, "Peer secret")
                .define(PEER_PORT_CONFIG, Type.INT, 0, Range.between(0, 65_535), Importance.MEDIUM, PEER_PORT_DOC,
                        Width.SHORT, "Peer port")
                .define(PEER_BIND_ADDRESS_CONFIG, Type.STRING, "", new MonitorValidators.BindAddress(),
                        Importance.MEDIUM, PEER_BIND_ADDRESS_DOC, Width.MEDIUM, "Peer bind address")
                .count(PEER_MAX_CONNECTIONS_CONFIG, PEER_MAX_CONNECTIONS_DEFAULT, 10_000, PEER_MAX_CONNECTIONS_DOC,
                        "Peer connections")
                .count(PEER_MAX_CONNECTIONS_PER_ADDRESS_CONFIG, PEER_MAX_CONNECTIONS_PER_ADDRESS_DEFAULT, 10_000,
                        PEER_MAX_CONNECTIONS_PER_ADDRESS_DOC, "Peer connections per address")
                .durationMs(PEER_HEADER_TIMEOUT_MS_CONFIG, PEER_HEADER_TIMEOUT_MS_DEFAULT, 60_000L,
                        PEER_HEADER_TIMEOUT_MS_DOC, "Peer header timeout")
                .durationMs(PEER_BODY_TIMEOUT_MS_CONFIG, PEER_BODY_TIMEOUT_MS_DEFAULT, 60_000L,
                        PEER_BODY_TIMEOUT_MS_DOC, "Peer body timeout")
                .durationMs(PEER_IDLE_TIMEOUT_MS_CONFIG, PEER_IDLE_TIMEOUT_MS_DEFAULT, 600_000L,
                        PEER_IDLE_TIMEOUT_MS_DOC, "Peer idle timeout")
                .durationMs(PEER_WRITE_TIMEOUT_MS_CONFIG, PEER_WRITE_TIMEOUT_MS_DEFAULT, 60_000L,
                        PEER_WRITE_TIMEOUT_MS_DOC, "Peer answer timeout");
    }
}
