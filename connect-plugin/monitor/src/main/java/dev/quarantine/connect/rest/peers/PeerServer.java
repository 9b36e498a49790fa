package dev.quarantine.connect.rest.peers;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

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
 * whole request goes to a handler thread (a few, with a short queue; beyond it, 503 and closed).
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
    private static final long OVERLOAD_LOG_INTERVAL_MS = 60_000;
    private static final long ACCEPT_BACKOFF_MS = 500;
    private static final int ACCEPTS_PER_PASS = 64;

    private final ServerSocketChannel listener;
    private final Selector selector;
    private final SelectionKey listenerKey;
    private final ThreadPoolExecutor handlers;
    private final PeerLimits limits;
    /** In the order they were accepted: the oldest first. */
    private final Set<PeerConnection> connections = new LinkedHashSet<>();
    private final Map<InetAddress, Integer> byAddress = new HashMap<>();
    private final Queue<Runnable> forSelector = new ConcurrentLinkedQueue<>();
    private final Thread loop;
    private volatile Endpoint endpoint;
    private volatile boolean closed;
    private final LogLimiter overloadLog = new LogLimiter(OVERLOAD_LOG_INTERVAL_MS);
    private final LogLimiter acceptFailureLog = new LogLimiter(OVERLOAD_LOG_INTERVAL_MS);
    private long acceptPausedUntilMs;

    private PeerServer(ServerSocketChannel listener, Selector selector, SelectionKey listenerKey, int handlerThreads,
                       PeerLimits limits) {
        this.listener = listener;
        this.selector = selector;
        this.listenerKey = listenerKey;
        this.limits = limits;
        this.handlers = new ThreadPoolExecutor(handlerThreads, handlerThreads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(handlerThreads * 4), daemon("quarantine-dead-letter-monitor-peers"),
                new ThreadPoolExecutor.AbortPolicy());
        this.loop = daemon("quarantine-dead-letter-monitor-peer-listener").newThread(this::run);
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
            PeerServer server = new PeerServer(listener, selector, listenerKey, handlerThreads, limits);
            server.loop.start();
            InetSocketAddress bound = (InetSocketAddress) listener.getLocalAddress();
            log.info("Dead-letter monitor: answering other workers on {}:{} (at most {} connections, {} from one"
                    + " address; {} ms for a request's headers, {} ms for its body, {} ms idle)",
                    bound.getAddress().getHostAddress(), bound.getPort(), limits.maxConnections(),
                    limits.maxConnectionsPerAddress(), limits.headTimeout().toMillis(),
                    limits.bodyTimeout().toMillis(), limits.idleTimeout().toMillis());
            return server;
        } catch (IOException | RuntimeException e) {
            closeQuietly(listener);
            closeQuietly(selector);
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
        this.endpoint = endpoint;
    }

    private void run() {
        while (!closed) {
            try {
                selector.select(SWEEP_MS);
                Runnable task;
                while ((task = forSelector.poll()) != null) {
                    task.run();
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    ready(key);
                }
                selector.selectedKeys().clear();
                closeExpired();
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
            return;
        }
        PeerConnection connection = (PeerConnection) key.attachment();
        try {
            if (key.isReadable()) {
                progress(connection, connection.read(now()));
            } else if (key.isWritable() && connection.write()) {
                written(connection);
            }
        } catch (IOException e) {
            close(connection); // the peer went away
        }
    }

    private void accept() {
        SocketChannel channel;
        try {
            for (int i = 0; i < ACCEPTS_PER_PASS && (channel = listener.accept()) != null; i++) {
                InetAddress remote = channel.socket().getInetAddress();
                PeerLimits.Admission admission = remote == null ? PeerLimits.Admission.REFUSE
                        : limits.admission(connections.size(), byAddress.getOrDefault(remote, 0));
                if (admission == PeerLimits.Admission.ADMIT
                        || admission == PeerLimits.Admission.MAKE_ROOM && closeOldestUnproven()) {
                    admit(channel, remote);
                } else {
                    refuseOverload(channel);
                }
            }
        } catch (IOException e) {
            // out of descriptors (EMFILE), most likely: stop accepting for a while instead of failing in a loop;
            // the connections still queued wait in the backlog
            acceptPausedUntilMs = now() + ACCEPT_BACKOFF_MS;
            listenerKey.interestOps(0);
            long failures = acceptFailureLog.event(now());
            if (failures > 0) {
                log.warn("Dead-letter monitor: the peer listener could not accept a connection ({}; {} such failures"
                        + " since the last such line); it stops accepting for {} ms each time", e.toString(), failures,
                        ACCEPT_BACKOFF_MS);
            }
        }
    }

    /** Accepts again once the pause after a failed accept is over. */
    private void resumeAccepting() {
        if (acceptPausedUntilMs != 0 && now() >= acceptPausedUntilMs && listenerKey.isValid()) {
            acceptPausedUntilMs = 0;
            listenerKey.interestOps(SelectionKey.OP_ACCEPT);
        }
    }

    /**
     * Registers an accepted connection; if that fails (the peer went away, the selector refuses it), closes it, so
     * no descriptor is left behind. Only on the listener's thread.
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
            connections.add(connection);
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
        for (PeerConnection connection : connections) {
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
                    + " whole request, to make room) since the last such line", connections.size(),
                    limits.maxConnections(), limits.maxConnectionsPerAddress(),
                    MonitorConfig.PEER_MAX_CONNECTIONS_CONFIG, MonitorConfig.PEER_MAX_CONNECTIONS_PER_ADDRESS_CONFIG,
                    overloaded);
        }
    }

    private void progress(PeerConnection connection, PeerConnection.Progress progress) throws IOException {
        switch (progress) {
            case CLOSED -> close(connection);
            case REFUSED -> respond(connection, PeerResponses.refusal(connection.refusalStatus()), true);
            case REQUEST -> received(connection);
            case NEED_MORE -> { }
        }
    }

    /**
     * A whole request: refused here on the listener's thread (unknown path, not ready, not proven) and the connection
     * closed, or handed to a handler thread.
     */
    private void received(PeerConnection connection) throws IOException {
        Request request = connection.request();
        Answer early = early(request);
        if (early != null) {
            respond(connection, PeerResponses.render(early, true), true);
        } else {
            dispatch(connection, request);
        }
    }

    private Answer early(Request request) {
        if (!"GET".equals(request.method()) || !Peers.PARTIALS_FULL_PATH.equals(request.path())) {
            return PeerResponses.plain(404);
        }
        Endpoint current = endpoint;
        if (current == null) {
            return PeerResponses.plain(503);
        }
        try {
            return current.refusal(request).orElse(null);
        } catch (RuntimeException | Error e) {
            log.error("Dead-letter monitor: checking a request from another worker failed; answered 500", e);
            return PeerResponses.plain(500);
        }
    }

    private void dispatch(PeerConnection connection, Request request) throws IOException {
        connection.key.interestOps(0);
        boolean keepAlive = connection.keepAlive();
        try {
            handlers.execute(() -> {
                Answer answer = answer(request);
                boolean close = !keepAlive || answer.signature() == null;
                byte[] bytes = PeerResponses.render(answer, close);
                forSelector.add(() -> respondLater(connection, bytes, close));
                selector.wakeup();
            });
        } catch (RejectedExecutionException e) {
            respond(connection, PeerResponses.overload(), true);
        }
    }

    private void respondLater(PeerConnection connection, byte[] answer, boolean close) {
        if (!connection.channel.isOpen()) {
            return;
        }
        try {
            respond(connection, answer, close);
        } catch (IOException e) {
            close(connection);
        }
    }

    private void respond(PeerConnection connection, byte[] answer, boolean close) throws IOException {
        if (connection.startWrite(answer, close, now())) {
            written(connection);
        } else {
            connection.key.interestOps(SelectionKey.OP_WRITE);
        }
    }

    private void written(PeerConnection connection) throws IOException {
        if (connection.closeAfterWrite()) {
            close(connection);
            return;
        }
        connection.awaitNext(now());
        connection.key.interestOps(SelectionKey.OP_READ);
        progress(connection, connection.advance(now()));
    }

    private void closeExpired() {
        long now = now();
        for (PeerConnection connection : new ArrayList<>(connections)) {
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

    /** One request, on a handler thread: whatever the endpoint throws is logged at ERROR and answered 500. */
    private Answer answer(Request request) {
        try {
            return endpoint.answer(request);
        } catch (RuntimeException | Error e) {
            log.error("Dead-letter monitor: a request from another worker failed; answered 500", e);
            return PeerResponses.plain(500);
        }
    }

    private void close(PeerConnection connection) {
        if (connections.remove(connection)) {
            byAddress.computeIfPresent(connection.remote, (address, open) -> open == 1 ? null : open - 1);
        }
        connection.key.cancel();
        closeQuietly(connection.channel);
    }

    private static long now() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    private static void closeQuietly(Closeable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (IOException e) {
            // nothing left to do
        }
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
        connections.forEach(c -> closeQuietly(c.channel));
        connections.clear();
        closeQuietly(listener);
        closeQuietly(selector);
        handlers.shutdownNow();
    }
}
