package dev.quarantine.connect.rest;

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
import java.util.stream.Collectors;

import org.apache.kafka.streams.state.HostInfo;

/**
 * Asks other workers of the aggregation for their share of the figures: {@code GET /dead-letters/~partials}, signed
 * with the peer secret ({@link PeerAuth}), answered in {@link Codec} form. No user credential goes along: the address
 * comes from the aggregation's group metadata, which anyone who can join that group can forge, so a share is used
 * only when its answer is signed by a worker holding the secret. Every call has one deadline for connecting, the
 * answer and its body, and a body limit.
 */
final class Peers {

    static final String PARTIALS_PATH = "~partials";
    static final String PARTIALS_FULL_PATH = "/dead-letters/" + PARTIALS_PATH;

    private final HttpClient http;
    private final WorkerSettings worker;
    private final PeerAuth auth;
    private final Duration deadline;
    private final long maxAnswerBytes;

    Peers(WorkerSettings worker, PeerAuth auth, Duration deadline, long maxAnswerBytes) {
        this.worker = worker;
        this.auth = auth;
        this.deadline = deadline;
        this.maxAnswerBytes = maxAnswerBytes;
        this.http = HttpClient.newBuilder().connectTimeout(deadline).followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** The query parameters of a request for {@code partitions}, as signed and as sent. */
    static Map<String, String> params(Collection<Integer> partitions, Partial.Query query) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("partitions", partitions.stream().map(String::valueOf).collect(Collectors.joining(",")));
        params.put("records", String.valueOf(query.records()));
        if (query.topic() != null) {
            params.put("topic", query.topic());
        }
        return params;
    }

    /** {@code host:port}, the address a request is signed for. */
    static String address(HostInfo host) {
        return host.host() + ":" + host.port();
    }

    /**
     * The peer's figures of {@code partitions}. Completes exceptionally with a {@link MonitorException}: 503 when
     * the peer does not answer in time, is not ready or does not prove it holds the secret, 421 when it says the
     * data is elsewhere, 500 when it fails or refuses this worker's proof.
     */
    CompletableFuture<Partial> fetch(HostInfo peer, Collection<Integer> partitions, Partial.Query query) {
        Map<String, String> params = params(partitions, query);
        PeerAuth.Proof proof = auth.signRequest(address(peer), PARTIALS_FULL_PATH, params);
        String uri = worker.url(peer) + PARTIALS_FULL_PATH + "?" + params.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(uri)).timeout(deadline).GET()
                .header("Accept", "application/octet-stream")
                .header(PeerAuth.TIME_HEADER, String.valueOf(proof.timeMs()))
                .header(PeerAuth.SIGNATURE_HEADER, proof.signature()).build();
        CompletableFuture<HttpResponse<byte[]>> sent = http.sendAsync(request, BoundedBody.handler(maxAnswerBytes));
        // cancelling aborts the exchange (connect, answer or a slow body); the deadline covers all of it
        CompletableFuture.delayedExecutor(deadline.toMillis(), TimeUnit.MILLISECONDS).execute(() -> sent.cancel(true));
        SortedSet<Integer> wanted = new TreeSet<>(partitions);
        return sent.handle((response, error) -> answer(peer, proof, wanted, response, error));
    }

    private Partial answer(HostInfo peer, PeerAuth.Proof proof, SortedSet<Integer> wanted,
                           HttpResponse<byte[]> response, Throwable error) {
        String url = worker.url(peer);
        if (error != null) {
            throw MonitorException.retryable("worker " + url + " did not answer within " + deadline.toMillis()
                    + " ms (" + rootCause(error) + "); a rebalance will move its share", null);
        }
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            throw MonitorException.fatal("worker " + url + " refused this worker's proof (" + status + "): is "
                    + MonitorConfig.PEER_SECRET_CONFIG + " the same on every worker?", null);
        }
        String signature = response.headers().firstValue(PeerAuth.SIGNATURE_HEADER).orElse(null);
        if (!auth.verifiesAnswer(proof.signature(), status, response.body(), signature)) {
            throw MonitorException.retryable("the worker at " + url + " (from the aggregation's group metadata)"
                    + " answered " + status + " without proving it holds " + MonitorConfig.PEER_SECRET_CONFIG
                    + "; its answer is not used", null);
        }
        if (status == 200) {
            Partial share = Codec.decode(response.body(), Partial::read);
            if (!share.partitions().equals(wanted)) {
                throw MonitorException.retryable("worker " + url + " answered for partitions " + share.partitions()
                        + " when asked for " + wanted, null);
            }
            return share;
        }
        if (status == 503) {
            throw MonitorException.retryable("worker " + url + " is not ready", null);
        }
        if (status == MonitorException.MISDIRECTED) {
            throw MonitorException.migrated("worker " + url + " no longer holds partitions " + wanted, null);
        }
        throw MonitorException.fatal("worker " + url + " answered " + status + " (its log has the details)", null);
    }

    private static String rootCause(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
