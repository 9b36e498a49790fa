package dev.quarantine.connect.rest.peers;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.LogLimiter;

/**
 * The peer listener's open connections, oldest first, held to {@link PeerLimits}: at most {@code max.connections}
 * (one more takes the place of the oldest that has not sent a whole request; {@link PeerLimits#admission}), at most
 * so many from one address, none past the deadline of its phase. Only on the listener's selector thread.
 */
final class PeerConnections {

    private static final Logger log = LoggerFactory.getLogger(PeerConnections.class);
    private static final long OVERLOAD_LOG_INTERVAL_MS = 60_000;

    private final Selector selector;
    private final PeerLimits limits;
    /** In the order they were accepted: the oldest first. */
    private final Set<PeerConnection> open = new LinkedHashSet<>();
    private final Map<InetAddress, Integer> byAddress = new HashMap<>();
    private final LogLimiter overloadLog = new LogLimiter(OVERLOAD_LOG_INTERVAL_MS);

    PeerConnections(Selector selector, PeerLimits limits) {
        this.selector = selector;
        this.limits = limits;
    }

    /** A connection just accepted: registered when the limits admit it (making room if they say so), else 503. */
    void accepted(SocketChannel channel) {
        InetAddress remote = channel.socket().getInetAddress();
        PeerLimits.Admission admission = remote == null ? PeerLimits.Admission.REFUSE
                : limits.admission(open.size(), byAddress.getOrDefault(remote, 0));
        if (admission == PeerLimits.Admission.ADMIT
                || admission == PeerLimits.Admission.MAKE_ROOM && closeOldestUnproven()) {
            admit(channel, remote);
        } else {
            refuseOverload(channel);
        }
    }

    /**
     * Registers an accepted connection; if that fails (the peer went away, the selector refuses it), closes it, so
     * no descriptor is left behind.
     *
     * @return whether the connection is registered
     */
    boolean admit(SocketChannel channel, InetAddress remote) {
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
            PeerConnection connection = new PeerConnection(channel, key, remote, limits, now());
            key.attach(connection);
            open.add(connection);
            byAddress.merge(remote, 1, Integer::sum);
            return true;
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            return false;
        }
    }

    /**
     * Closes the oldest connection that has not sent a whole request ({@link PeerLimits#makesRoom}), answered 503 if
     * it takes it; false when there is none.
     */
    private boolean closeOldestUnproven() {
        for (PeerConnection connection : open) {
            if (PeerLimits.makesRoom(connection.phase())) {
                try {
                    connection.channel.write(ByteBuffer.wrap(PeerResponses.overload()));
                } catch (IOException e) {
                    // closed below anyway
                }
                close(connection);
                countOverload();
                return true;
            }
        }
        return false;
    }

    /** 503 and closed, at once: nothing is read, nothing is kept. */
    private void refuseOverload(SocketChannel channel) {
        try (channel) {
            channel.configureBlocking(false);
            channel.write(ByteBuffer.wrap(PeerResponses.overload()));
        } catch (IOException e) {
            // the peer went away already
        }
        countOverload();
    }

    /** Logs at most once a minute, with a count, that connections were refused or closed for room. */
    private void countOverload() {
        long overloaded = overloadLog.event(now());
        if (overloaded > 0) {
            log.warn("Dead-letter monitor: the peer listener holds {} connections ({} at most, {} from one address:"
                    + " {}, {}); {} connections were answered 503 and closed (new ones, or the oldest that had not sent a"
                    + " whole request, to make room) since the last such line", open.size(),
                    limits.maxConnections(), limits.maxConnectionsPerAddress(),
                    MonitorConfig.PEER_MAX_CONNECTIONS_CONFIG, MonitorConfig.PEER_MAX_CONNECTIONS_PER_ADDRESS_CONFIG,
                    overloaded);
        }
    }

    /** Closes every connection past its phase's deadline; one still sending its request is answered 408 first. */
    void closeExpired() {
        long now = now();
        for (PeerConnection connection : new ArrayList<>(open)) {
            if (connection.expired(now)) {
                if (connection.phase() == PeerLimits.Phase.HEAD || connection.phase() == PeerLimits.Phase.BODY) {
                    try {
                        connection.channel.write(ByteBuffer.wrap(PeerResponses.refusal(408)));
                    } catch (IOException e) {
                        // closed below anyway
                    }
                }
                close(connection);
            }
        }
    }

    void close(PeerConnection connection) {
        if (open.remove(connection)) {
            byAddress.computeIfPresent(connection.remote, (address, count) -> count == 1 ? null : count - 1);
        }
        connection.key.cancel();
        closeQuietly(connection.channel);
    }

    /** Closes them all, when the listener stops. */
    void closeAll() {
        open.forEach(c -> closeQuietly(c.channel));
        open.clear();
    }

    static long now() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
    }

    static void closeQuietly(Closeable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (IOException e) {
            // nothing left to do
        }
    }
}
