package dev.quarantine.connect.rest.peers;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.quarantine.connect.rest.http.LogLimiter;
import dev.quarantine.connect.rest.MonitorConfig;

/**
 * The listener other workers of the aggregation ask for this worker's share ({@code GET /dead-letters/~partials}),
 * apart from the worker's REST API: the worker's REST authentication would demand a user credential there, and a
 * credential sent to an address taken from the group metadata can reach anyone who joins that group. Here the only
 * proof is the peer signature ({@link PeerAuth}).
 *
 * <p>Anyone who reaches the port can connect, so nothing a connection does may hold a thread or a descriptor for
 * long: one selector thread reads every connection without blocking, each phase of a connection has a deadline
 * ({@link PeerLimits}), at most {@code max.connections} are open (one more takes the place of the oldest connection
 * that has not sent a whole request, which is answered 503 and closed; {@link PeerLimits#admission}), and only a
 * whole request goes to a handler thread (a few, with a short queue; beyond it, 503 and closed). This class binds the
 * port and runs the selector loop; {@link PeerConnections} holds the connections to the limits, {@link PeerExchanges}
 * turns a connection's request into its answer.
 */
public final class PeerServer implements AutoCloseable {

    /** The answer to one peer request. */
    public record Answer(int status, String signature, Integer retryAfterSeconds, byte[] body) {
    }

    /** One peer request as received: header names in lower case, the query raw. */
    public record Request(String method, String path, String rawQuery, Map<String, String> headers, byte[] body) {
    }

    /** Answers one peer request. */
    public interface Endpoint {
        /** The answer, on a handler thread; a signed answer may keep the connection open, any other closes it. */
        Answer answer(Request request);

        /**
         * On the listener's own thread, before a handler thread is taken: the refusal of a request that does not
         * prove itself (cheap: no store is read), or empty to hand it to {@link #answer}. The listener closes the
         * connection after a refusal, so an unproven client never keeps a connection alive.
         */
        default Optional<Answer> refusal(Request request) {
            return Optional.empty();
        }
    }

    private static final Logger log = LoggerFactory.getLogger(PeerServer.class);
    private static final int BACKLOG = 128;
    private static final long SWEEP_MS = 200;
    private static final long ACCEPT_FAILURE_LOG_INTERVAL_MS = 60_000;
    private static final long ACCEPT_BACKOFF_MS = 500;
    private static final int ACCEPTS_PER_PASS = 64;

    private final ServerSocketChannel listener;
    private final Selector selector;
    private final SelectionKey listenerKey;
    private final PeerConnections connections;
    private final PeerExchanges exchanges;
    private final Thread loop;
    private volatile boolean closed;
    private final LogLimiter acceptFailureLog = new LogLimiter(ACCEPT_FAILURE_LOG_INTERVAL_MS);
    private long acceptPausedUntilMs;

    private PeerServer(ServerSocketChannel listener, Selector selector, SelectionKey listenerKey,
                       PeerConnections connections, int handlerThreads) {
        this.listener = listener;
        this.selector = selector;
        this.listenerKey = listenerKey;
        this.connections = connections;
        this.exchanges = new PeerExchanges(selector, connections, handlerThreads);
        this.loop = PeerExchanges.daemon("quarantine-dead-letter-monitor-peer-listener").newThread(this::run);
    }

    /**
     * Listens on {@code host} ({@code null}: every interface) and {@code port} (0: any free port). Whatever fails
     * leaves nothing open and names the settings to change.
     */
    public static PeerServer start(String host, int port, int handlerThreads, PeerLimits limits) {
        InetSocketAddress address = host == null ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new ConfigException("the dead-letter monitor cannot listen for other workers on " + host + ": no"
                    + " address of this host has that name; set " + MonitorConfig.PEER_BIND_ADDRESS_CONFIG + " to an"
                    + " address of this host (by default the host of the worker's REST listener, else its"
                    + " advertised host)");
        }
        ServerSocketChannel listener = null;
        Selector selector = null;
        try {
            listener = ServerSocketChannel.open();
            listener.bind(address, BACKLOG);
            listener.configureBlocking(false);
            selector = Selector.open();
            SelectionKey listenerKey = listener.register(selector, SelectionKey.OP_ACCEPT);
            PeerServer server = new PeerServer(listener, selector, listenerKey, new PeerConnections(selector, limits),
                    handlerThreads);
            server.loop.start();
            InetSocketAddress bound = (InetSocketAddress) listener.getLocalAddress();
            log.info("Dead-letter monitor: answering other workers on {}:{} (at most {} connections, {} from one"
                    + " address; {} ms for a request's headers, {} ms for its body, {} ms idle)",
                    bound.getAddress().getHostAddress(), bound.getPort(), limits.maxConnections(),
                    limits.maxConnectionsPerAddress(), limits.headTimeout().toMillis(),
                    limits.bodyTimeout().toMillis(), limits.idleTimeout().toMillis());
            return server;
        } catch (IOException | RuntimeException e) {
            PeerConnections.closeQuietly(listener);
            PeerConnections.closeQuietly(selector);
            throw new ConfigException("the dead-letter monitor could not listen on " + address + " for other"
                    + " workers (" + e + "): set " + MonitorConfig.PEER_PORT_CONFIG + " to a free port and "
                    + MonitorConfig.PEER_BIND_ADDRESS_CONFIG + " to an address of this host");
        }
    }

    public int port() {
        return listener.socket().getLocalPort();
    }

    /** From now on, requests are answered by {@code endpoint} (before: 503). */
    public void serve(Endpoint endpoint) {
        exchanges.serve(endpoint);
    }

    private void run() {
        while (!closed) {
            try {
                selector.select(SWEEP_MS);
                exchanges.writeComputedAnswers();
                for (SelectionKey key : selector.selectedKeys()) {
                    ready(key);
                }
                selector.selectedKeys().clear();
                connections.closeExpired();
                resumeAccepting();
            } catch (IOException | RuntimeException e) {
                if (!closed) {
                    log.error("Dead-letter monitor: the peer listener's loop failed; it goes on", e);
                }
            }
        }
    }

    private void ready(SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        if (key.isAcceptable()) {
            accept();
        } else {
            exchanges.ready(key);
        }
    }

    private void accept() {
        SocketChannel channel;
        try {
            for (int i = 0; i < ACCEPTS_PER_PASS && (channel = listener.accept()) != null; i++) {
                connections.accepted(channel);
            }
        } catch (IOException e) {
            // out of descriptors (EMFILE), most likely: stop accepting for a while instead of failing in a loop;
            // the connections still queued wait in the backlog
            long now = PeerConnections.now();
            acceptPausedUntilMs = now + ACCEPT_BACKOFF_MS;
            listenerKey.interestOps(0);
            long failures = acceptFailureLog.event(now);
            if (failures > 0) {
                log.warn("Dead-letter monitor: the peer listener could not accept a connection ({}; {} such failures"
                        + " since the last such line); it stops accepting for {} ms each time", e.toString(), failures,
                        ACCEPT_BACKOFF_MS);
            }
        }
    }

    /** Accepts again once the pause after a failed accept is over. */
    private void resumeAccepting() {
        if (acceptPausedUntilMs != 0 && PeerConnections.now() >= acceptPausedUntilMs && listenerKey.isValid()) {
            acceptPausedUntilMs = 0;
            listenerKey.interestOps(SelectionKey.OP_ACCEPT);
        }
    }

    /** {@link PeerConnections#admit}, for a test to hand it a channel that fails. */
    boolean admit(SocketChannel channel, InetAddress remote) {
        return connections.admit(channel, remote);
    }

    @Override
    public void close() {
        closed = true;
        selector.wakeup();
        try {
            loop.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connections.closeAll();
        PeerConnections.closeQuietly(listener);
        PeerConnections.closeQuietly(selector);
        exchanges.close();
    }
}
