package dev.quarantine.connect.rest.peers;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.quarantine.connect.rest.http.BoundedBody;
import dev.quarantine.connect.rest.http.Causes;
import dev.quarantine.connect.rest.aggregation.Codec;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;
import dev.quarantine.connect.rest.WorkerSettings;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;

/**
 * Asks other workers of the aggregation for their share of the figures: {@code GET /dead-letters/~partials}, signed
 * with the peer secret ({@link PeerAuth}), answered in {@link Codec} form. No user credential goes along: the address
 * comes from the aggregation's group metadata, which anyone who can join that group can forge, so a share is used
 * only when its answer is signed by a worker holding the secret, for this request's nonce. Every call has one
 * deadline for connecting, the answer and its body, and a body limit. A peer that speaks another peer protocol (a
 * worker of another plugin version) is not used, and said once in the log.
 */
public final class Peers {

    private static final Logger log = LoggerFactory.getLogger(Peers.class);
    /** How often an overload answer of the peer listener is sent again within the deadline. */
    static final int OVERLOAD_RETRIES = 2;

    static final String PARTIALS_PATH = "~partials";
    public static final String PARTIALS_FULL_PATH = "/dead-letters/" + PARTIALS_PATH;
    /** The request parameter naming the aggregation the requester reads. */
    public static final String AGGREGATION_PARAM = "aggregation";
    /** A peer's answer to a request of another aggregation than it runs (409 Conflict). */
    public static final int OTHER_AGGREGATION = 409;

    private final HttpClient http;
    private final WorkerSettings worker;
    private final PeerAuth auth;
    private final Duration deadline;
    private final long maxAnswerBytes;
    private final AtomicBoolean otherProtocolLogged = new AtomicBoolean();

    public Peers(WorkerSettings worker, PeerAuth auth, Duration deadline, long maxAnswerBytes) {
        this.worker = worker;
        this.auth = auth;
        this.deadline = deadline;
        this.maxAnswerBytes = maxAnswerBytes;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(deadline)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** The query parameters of a request for {@code partitions}, as signed and as sent; no aggregation named. */
    public static Map<String, String> params(Collection<Integer> partitions, PartitionFigures.Query query) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("partitions", partitions.stream().map(String::valueOf).collect(Collectors.joining(",")));
        params.put("records", String.valueOf(query.records()));
        if (query.topic() != null) {
            params.put("topic", query.topic());
        }
        return params;
    }

    /**
     * As {@link #params(Collection, PartitionFigures.Query)}, naming the aggregation the partitions are of (its
     * {@link dev.quarantine.connect.rest.discovery.MonitoredTopics#fingerprint()}): a peer that runs another one
     * answers {@value #OTHER_AGGREGATION} instead of figures of other topics under the same partition numbers.
     */
    public static Map<String, String> params(Collection<Integer> partitions, PartitionFigures.Query query,
                                             String aggregation) {
        Map<String, String> params = params(partitions, query);
        params.put(AGGREGATION_PARAM, aggregation);
        return params;
    }

    /** The raw query of a request with these parameters, as signed and as sent. */
    public static String rawQuery(Map<String, String> params) {
        return params.entrySet().stream().map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(),
                StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }

    /** {@code host:port}, the address a request is signed for. */
    public static String address(HostInfo host) {
        return host.host() + ":" + host.port();
    }

    /**
     * The peer's figures of {@code partitions}. Completes exceptionally with a {@link MonitorException}: 503 when
     * the peer does not answer in time, is not ready or does not prove it holds the secret, 421 when it says the
     * data is elsewhere, 500 when it fails or refuses this worker's proof.
     */
    public CompletableFuture<PartitionFigures> fetch(HostInfo peer, Collection<Integer> partitions,
            PartitionFigures.Query query, String aggregation) {
        return fetch(peer, params(partitions, query, aggregation), new TreeSet<>(partitions),
                System.nanoTime() + deadline.toNanos(), OVERLOAD_RETRIES);
    }

    /**
     * One request, signed afresh, within what is left of the deadline. The peer listener answers an unsigned 503
     * when it makes room for a newer connection by closing one that had not sent its whole request yet (a flood of
     * connections, see {@link PeerLimits#makesRoom}): such an answer is sent again, {@code retries} times at most,
     * on a new connection, which is then the newest.
     */
    private CompletableFuture<PartitionFigures> fetch(HostInfo peer, Map<String, String> params,
            SortedSet<Integer> wanted, long deadlineNanos, int retries) {
        Duration left = Duration.ofNanos(Math.max(1_000_000, deadlineNanos - System.nanoTime()));
        String rawQuery = rawQuery(params);
        PeerAuth.Proof proof = auth.signRequest(address(worker.self()), address(peer), "GET", PARTIALS_FULL_PATH,
                rawQuery, new byte[0]);
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(worker.url(peer) + PARTIALS_FULL_PATH + "?"
                + rawQuery)).timeout(left).GET().header("Accept", "application/octet-stream");
        proof.headers().forEach(builder::header);
        HttpRequest request = builder.build();
        CompletableFuture<HttpResponse<byte[]>> sent = http.sendAsync(request, BoundedBody.handler(maxAnswerBytes));
        // cancelling aborts the exchange (connect, answer or a slow body); the deadline covers all of it
        CompletableFuture.delayedExecutor(left.toMillis(), TimeUnit.MILLISECONDS).execute(() -> sent.cancel(true));
        return sent.handle((response, error) -> retries > 0 && overloaded(response)
                        && System.nanoTime() < deadlineNanos
                ? fetch(peer, params, wanted, deadlineNanos, retries - 1)
                : CompletableFuture.completedFuture(response).thenApply(r -> answer(peer, proof, wanted, r, error)))
                .thenCompose(answer -> answer);
    }

    /** An unsigned 503: the listener's answer to a connection it closed to make room (or refused at once). */
    private static boolean overloaded(HttpResponse<byte[]> response) {
        return response != null && response.statusCode() == 503
                && response.headers().firstValue(PeerAuth.SIGNATURE_HEADER).isEmpty();
    }

    private PartitionFigures answer(HostInfo peer, PeerAuth.Proof proof, SortedSet<Integer> wanted,
                           HttpResponse<byte[]> response, Throwable error) {
        String url = worker.url(peer);
        if (error != null) {
            throw MonitorException.retryable("worker " + url + " did not answer within " + deadline.toMillis()
                    + " ms (" + rootCause(error) + "); a rebalance will move its share", null);
        }
        int status = response.statusCode();
        String protocol = response.headers().firstValue(PeerAuth.PROTOCOL_HEADER).orElse(null);
        if (!PeerSigningInput.PROTOCOL.equals(protocol)) {
            String message = "worker " + url + " (from the aggregation's group metadata) answered " + status
                    + " without speaking peer protocol " + PeerSigningInput.PROTOCOL + ": a worker of another plugin"
                    + " version (its share is used again once every worker runs the same version), or no worker at"
                    + " all";
            if (otherProtocolLogged.compareAndSet(false, true)) {
                log.warn("Dead-letter monitor: {} (said once)", message);
            }
            throw MonitorException.retryable(message, null);
        }
        String signature = response.headers().firstValue(PeerAuth.SIGNATURE_HEADER).orElse(null);
        if (status == 401 || status == 403) {
            // a refusal is unsigned (it may come from a worker with another secret), so anyone on the path could
            // send it: it is no reason to fail the answer for good, only to say what to check
            throw MonitorException.retryable("worker " + url + " refused this worker's proof (" + status + ", an"
                    + " unproven answer): is " + MonitorConfig.PEER_SECRET_CONFIG + " the same on every worker, and"
                    + " are their clocks synchronized (a worker refuses a request signed more than "
                    + PeerAuth.MAX_AGE.toSeconds() + " s off its clock, or before it started)?", null);
        }
        if (!auth.verifiesAnswer(proof.nonce(), status, response.body(), signature)) {
            throw MonitorException.retryable("the worker at " + url + " (from the aggregation's group metadata)"
                    + " answered " + status + " without proving it holds " + MonitorConfig.PEER_SECRET_CONFIG
                    + "; its answer is not used", null);
        }
        if (status == 200) {
            PartitionFigures share = Codec.decode(response.body(), PartitionFigures::read);
            if (!share.partitions().equals(wanted)) {
                throw MonitorException.retryable("worker " + url + " answered for partitions " + share.partitions()
                        + " when asked for " + wanted, null);
            }
            return share;
        }
        if (status == 503) {
            throw MonitorException.retryable("worker " + url + " is not ready", null);
        }
        if (status == OTHER_AGGREGATION) {
            throw MonitorException.unavailable("the workers do not read the same dead-letter topics yet (a topic"
                    + " was created, deleted or widened, and not every worker has seen it); retry later", "worker "
                    + url + " runs another aggregation than this worker's", null);
        }
        if (status == MonitorException.MISDIRECTED) {
            throw MonitorException.migrated("worker " + url + " no longer holds partitions " + wanted, null);
        }
        throw MonitorException.fatal("worker " + url + " answered " + status + " (its log has the details)", null);
    }

    private static String rootCause(Throwable error) {
        Throwable root = Causes.root(error);
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
