package dev.quarantine.connect.rest;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Asks other workers of the aggregation for their share of the figures, over their REST API (their Streams
 * application.server): {@code GET /dead-letters/~partials?partitions=...}, answered in {@link Codec} form. The
 * caller's Authorization header goes along, so the peer's REST authentication applies as it does to the caller.
 */
final class Peers {

    static final String PARTIALS_PATH = "~partials";

    private final HttpClient http;
    private final Duration timeout;

    Peers(Duration timeout) {
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /**
     * The peer's figures of {@code partitions}. Completes exceptionally with a {@link MonitorException}: 503 when
     * the peer is unreachable or not ready (a rebalance follows), 421 naming it when it says the data is elsewhere,
     * 500 when it fails.
     */
    CompletableFuture<Partial> fetch(String peerUrl, Collection<Integer> partitions, Partial.Query query,
                                     String authorization) {
        StringBuilder uri = new StringBuilder(peerUrl).append("/dead-letters/").append(PARTIALS_PATH)
                .append("?partitions=").append(partitions.stream().map(String::valueOf)
                        .collect(Collectors.joining(",")))
                .append("&records=").append(query.records());
        if (query.topic() != null) {
            uri.append("&topic=").append(URLEncoder.encode(query.topic(), StandardCharsets.UTF_8));
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri.toString())).timeout(timeout).GET()
                .header("Accept", "application/octet-stream");
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
                .handle((response, error) -> answer(peerUrl, response, error));
    }

    private static Partial answer(String peerUrl, HttpResponse<byte[]> response, Throwable error) {
        if (error != null) {
            throw MonitorException.retryable("worker " + peerUrl + " of the dead-letter monitor did not answer ("
                    + rootMessage(error) + "); a rebalance will move its share", null);
        }
        int status = response.statusCode();
        if (status == 200) {
            return Codec.decode(response.body(), Partial::read);
        }
        String body = new String(response.body(), StandardCharsets.UTF_8);
        if (status == 503) {
            throw MonitorException.retryable("worker " + peerUrl + " is not ready: " + body, null);
        }
        if (status == MonitorException.MISDIRECTED) {
            throw MonitorException.migrated(peerUrl, "worker " + peerUrl + " no longer holds the data: " + body, null);
        }
        if (status == 401 || status == 403) {
            throw MonitorException.fatal("worker " + peerUrl + " refused the forwarded request (" + status
                    + "): workers must accept the same credentials", null);
        }
        throw MonitorException.fatal("worker " + peerUrl + " answered " + status + ": " + body, null);
    }

    private static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
