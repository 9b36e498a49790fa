package dev.quarantine.connect.rest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.quarantine.sandbox.ConnectRest;
import dev.quarantine.sandbox.ConnectRest.Answer;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;
import dev.quarantine.connect.rest.peers.PeerAuth;
import dev.quarantine.connect.rest.peers.Peers;

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

    /** The sender a request from the test names: it acts as another worker of the cluster. */
    static final String SENDER = "127.0.0.1:9";

    /** A signed request as it goes over the wire: its raw query and its headers. */
    record Captured(String rawQuery, Map<String, String> headers) {
    }

    /** A request for {@code partition}'s share, signed with {@code auth} for this worker. */
    Answer signedShare(PeerAuth auth, LocalConnect worker, int partition) {
        return send(worker, captureShare(auth, worker, partition));
    }

    /** A request for {@code partition}'s share, signed with {@code auth} for this worker, not sent yet. */
    Captured captureShare(PeerAuth auth, LocalConnect worker, int partition) {
        Map<String, String> params = Peers.params(List.of(partition), new PartitionFigures.Query(null, 0));
        return new Captured(Peers.rawQuery(params), proof(auth, address(worker), params).headers());
    }

    /** The proof of a request with these parameters, signed with {@code auth} for {@code target}. */
    static PeerAuth.Proof proof(PeerAuth auth, String target, Map<String, String> params) {
        return auth.signRequest(SENDER, target, "GET", Peers.PARTIALS_FULL_PATH, Peers.rawQuery(params),
                new byte[0]);
    }

    /** Sends a captured request (again). */
    Answer send(LocalConnect worker, Captured captured) {
        return ConnectRest.at(url(worker)).get(Peers.PARTIALS_FULL_PATH + "?" + captured.rawQuery(),
                captured.headers());
    }

    /** A request with these parameters and this proof, right or wrong. */
    Answer send(LocalConnect worker, Map<String, String> params, PeerAuth.Proof proof) {
        return send(worker, new Captured(Peers.rawQuery(params), proof.headers()));
    }
}
