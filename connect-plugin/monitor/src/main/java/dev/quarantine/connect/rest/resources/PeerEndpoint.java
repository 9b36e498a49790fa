package dev.quarantine.connect.rest.resources;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.quarantine.connect.rest.peers.PeerServer;
import dev.quarantine.connect.rest.aggregation.Codec;
import dev.quarantine.connect.rest.aggregation.Monitor;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;
import dev.quarantine.connect.rest.peers.PeerAnswers;
import dev.quarantine.connect.rest.peers.PeerAuth;
import dev.quarantine.connect.rest.peers.Peers;

/**
 * Answers another worker's request for this worker's share ({@link PeerServer}): only with a valid peer signature
 * over exactly the request received, only for a monitored topic, from this worker's own stores, in {@link Codec}
 * form. A request of another peer protocol (a worker of another plugin version) is refused with 400, and said once
 * in the log.
 */
public final class PeerEndpoint implements PeerServer.Endpoint {

    private static final Logger log = LoggerFactory.getLogger(PeerEndpoint.class);
    private static final Pattern AGGREGATION = Pattern.compile("[0-9a-f]{8}");

    private final Monitor monitor;
    private final ClusterReader reader;
    private final PeerAuth auth;
    private final PeerAnswers answers;
    private final AtomicBoolean otherProtocolLogged = new AtomicBoolean();

    public PeerEndpoint(Monitor monitor, ClusterReader reader, PeerAuth auth, PeerAnswers answers) {
        this.monitor = monitor;
        this.reader = reader;
        this.auth = auth;
        this.answers = answers;
    }

    @Override
    public PeerServer.Answer answer(PeerServer.Request request) {
        String nonce = request.headers().get(PeerAuth.NONCE_HEADER.toLowerCase(Locale.ROOT));
        return answers.share(() -> verify(request), nonce, () -> {
            Map<String, String> params;
            try {
                params = params(request.rawQuery());
            } catch (IllegalArgumentException e) {
                throw MonitorException.badRequest("a malformed query");
            }
            Optional<String> aggregation = aggregation(params.get(Peers.AGGREGATION_PARAM));
            // before the topic: a topic another aggregation reads is unknown here, which is no 404 but a conflict
            reader.requireAggregation(aggregation);
            String topic = params.get("topic");
            if (topic != null) {
                DeadLetterResource.checkTopic(monitor, reader, topic);
            }
            PartitionFigures.Query query = new PartitionFigures.Query(topic, DeadLetterResource.intParam("records",
                    params.get("records"), 0, 0, monitor.config().recentRecords()));
            return Codec.encode(reader.readLocal(DeadLetterResource.partitionList(params.get("partitions")), query,
                    aggregation), PartitionFigures::write);
        });
    }

    @Override
    public Optional<PeerServer.Answer> refusal(PeerServer.Request request) {
        Optional<PeerAuth.Refusal> refusal = auth.checkRequest(Peers.address(monitor.worker().self()),
                request.method(), request.path(), request.rawQuery(), request.body(), request.headers());
        refusal.ifPresent(this::logOtherProtocolOnce);
        return refusal.map(r -> answers.refusal(r.toException()));
    }

    private void logOtherProtocolOnce(PeerAuth.Refusal refusal) {
        if (refusal.reason() == PeerAuth.Reason.OTHER_PROTOCOL && otherProtocolLogged.compareAndSet(false, true)) {
            log.warn("Dead-letter monitor: refused {} (said once; every worker must run the same plugin version)",
                    refusal.message());
        }
    }

    private void verify(PeerServer.Request request) {
        Optional<PeerAuth.Refusal> refusal = auth.verifyRequest(Peers.address(monitor.worker().self()),
                request.method(), request.path(), request.rawQuery(), request.body(), request.headers());
        if (refusal.isEmpty()) {
            return;
        }
        logOtherProtocolOnce(refusal.get());
        throw refusal.get().toException();
    }

    /** The aggregation a request names: a fingerprint (8 hex digits), or none from a worker that names none. */
    static Optional<String> aggregation(String param) {
        if (param == null) {
            return Optional.empty();
        }
        if (!AGGREGATION.matcher(param).matches()) {
            throw MonitorException.badRequest("a malformed aggregation");
        }
        return Optional.of(param);
    }

    /** The decoded query parameters; of a repeated one the last. */
    static Map<String, String> params(String rawQuery) {
        Map<String, String> params = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return params;
        }
        for (String pair : rawQuery.split("&")) {
            int equals = pair.indexOf('=');
            String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            params.put(name, value);
        }
        return params;
    }
}
