package dev.quarantine.connect.rest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.quarantine.sandbox.ConnectRest;
import dev.quarantine.sandbox.ConnectRest.Answer;
import dev.quarantine.sandbox.LocalConnect;

/** Requests to a worker's monitor peer listener, as another worker (or someone pretending to be one) sends them. */
final class PeerRequests {

    private static final Pattern PEER_LISTENER = Pattern.compile("answering other workers on (127\\.0\\.0\\.1:\\d+)");

    /** {@code host:port} of the worker's monitor peer listener, as its log says (the last start's). */
    static String address(LocalConnect worker) {
        String address = null;
        try {
            Matcher matcher = PEER_LISTENER.matcher(Files.readString(worker.logFile()));
            while (matcher.find()) {
                address = matcher.group(1);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (address == null) {
            throw new IllegalStateException("no peer listener line in " + worker.logFile());
        }
        return address;
    }

    static String url(LocalConnect worker) {
        return "http://" + address(worker);
    }

    /** A request for {@code partition}'s share, signed with {@code auth} for this worker. */
    Answer signedShare(PeerAuth auth, LocalConnect worker, int partition) {
        Map<String, String> params = Peers.params(List.of(partition), new Partial.Query(null, 0));
        return send(worker, params, auth.signRequest(address(worker), Peers.PARTIALS_FULL_PATH, params));
    }

    /** A request with these parameters and this proof, right or wrong. */
    Answer send(LocalConnect worker, Map<String, String> params, PeerAuth.Proof proof) {
        String query = params.entrySet().stream().map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(),
                StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        return ConnectRest.at(url(worker)).get(Peers.PARTIALS_FULL_PATH + "?" + query, Map.of(PeerAuth.TIME_HEADER,
                String.valueOf(proof.timeMs()), PeerAuth.SIGNATURE_HEADER, proof.signature()));
    }
}
