package dev.quarantine.connect.rest.peers;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * From a connection's bytes to its answer: a request refused on the listener's thread (unknown path, not serving
 * yet, not proven: cheap, nothing is read) is answered and its connection closed; a proven one goes to a handler
 * thread (a few, with a short queue; beyond it, 503 and closed), whose answer is written back on the listener's
 * thread. A signed answer may keep the connection open for the next request, any other closes it.
 */
final class PeerExchanges {

    private static final Logger log = LoggerFactory.getLogger(PeerExchanges.class);

    private final Selector selector;
    private final PeerConnections connections;
    private final ThreadPoolExecutor handlers;
    /** Answers computed on handler threads, to write on the listener's thread. */
    private final Queue<Runnable> toWrite = new ConcurrentLinkedQueue<>();
    private volatile PeerServer.Endpoint endpoint;

    PeerExchanges(Selector selector, PeerConnections connections, int handlerThreads) {
        this.selector = selector;
        this.connections = connections;
        this.handlers = new ThreadPoolExecutor(handlerThreads, handlerThreads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(handlerThreads * 4), daemon("quarantine-dead-letter-monitor-peers"),
                new ThreadPoolExecutor.AbortPolicy());
    }

    /** From now on, requests are answered by {@code endpoint} (before: 503). */
    void serve(PeerServer.Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** A connection the selector says is ready to read or write. */
    void ready(SelectionKey key) {
        PeerConnection connection = (PeerConnection) key.attachment();
        try {
            if (key.isReadable()) {
                progress(connection, connection.read(PeerConnections.now()));
            } else if (key.isWritable() && connection.write()) {
                written(connection);
            }
        } catch (IOException e) {
            connections.close(connection); // the peer went away
        }
    }

    /** Writes the answers the handler threads computed since the last call; on the listener's thread. */
    void writeComputedAnswers() {
        Runnable write;
        while ((write = toWrite.poll()) != null) {
            write.run();
        }
    }

    private void progress(PeerConnection connection, PeerConnection.Progress progress) throws IOException {
        switch (progress) {
            case CLOSED -> connections.close(connection);
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
        PeerServer.Request request = connection.request();
        PeerServer.Answer early = early(request);
        if (early != null) {
            respond(connection, PeerResponses.render(early, true), true);
        } else {
            dispatch(connection, request);
        }
    }

    private PeerServer.Answer early(PeerServer.Request request) {
        if (!"GET".equals(request.method()) || !Peers.PARTIALS_FULL_PATH.equals(request.path())) {
            return PeerResponses.plain(404);
        }
        PeerServer.Endpoint current = endpoint;
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

    private void dispatch(PeerConnection connection, PeerServer.Request request) throws IOException {
        connection.key.interestOps(0);
        boolean keepAlive = connection.keepAlive();
        try {
            handlers.execute(() -> {
                PeerServer.Answer answer = answer(request);
                boolean close = !keepAlive || answer.signature() == null;
                byte[] bytes = PeerResponses.render(answer, close);
                toWrite.add(() -> respondLater(connection, bytes, close));
                selector.wakeup();
            });
        } catch (RejectedExecutionException e) {
            respond(connection, PeerResponses.overload(), true);
        }
    }

    /** One request, on a handler thread: whatever the endpoint throws is logged at ERROR and answered 500. */
    private PeerServer.Answer answer(PeerServer.Request request) {
        try {
            return endpoint.answer(request);
        } catch (RuntimeException | Error e) {
            log.error("Dead-letter monitor: a request from another worker failed; answered 500", e);
            return PeerResponses.plain(500);
        }
    }

    private void respondLater(PeerConnection connection, byte[] answer, boolean close) {
        if (!connection.channel.isOpen()) {
            return;
        }
        try {
            respond(connection, answer, close);
        } catch (IOException e) {
            connections.close(connection);
        }
    }

    private void respond(PeerConnection connection, byte[] answer, boolean close) throws IOException {
        if (connection.startWrite(answer, close, PeerConnections.now())) {
            written(connection);
        } else {
            connection.key.interestOps(SelectionKey.OP_WRITE);
        }
    }

    private void written(PeerConnection connection) throws IOException {
        if (connection.closeAfterWrite()) {
            connections.close(connection);
            return;
        }
        connection.awaitNext(PeerConnections.now());
        connection.key.interestOps(SelectionKey.OP_READ);
        progress(connection, connection.advance(PeerConnections.now()));
    }

    /** Stops the handler threads, when the listener stops. */
    void close() {
        handlers.shutdownNow();
    }

    static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
