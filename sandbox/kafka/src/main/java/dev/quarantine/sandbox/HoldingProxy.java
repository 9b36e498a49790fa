package dev.quarantine.sandbox;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.common.protocol.ApiKeys;

/**
 * A TCP proxy on 127.0.0.1 in front of one {@link LocalKafka} broker that can hold the requests of chosen Kafka APIs:
 * a held request, and whatever its client sends after it on that connection, waits until {@link #release()}, then
 * goes to the broker (even when its client has given up on it meanwhile); every other connection goes on. So a test
 * makes one step of a protocol slow (a producer's {@code EndTxn} request, say) while the broker answers everything
 * else, which stopping the broker cannot do.
 *
 * <p>Clients reach it through the broker's advertised listener: {@link #startBroker} starts a broker so (or, by hand,
 * create one with {@code advertised.listeners=PLAINTEXT://127.0.0.1:<port()>}, {@link #forwardTo} its address, then
 * start it).
 * Requests are read by Kafka's framing (a 4-byte size, then the request header, whose first field is the API key).
 */
public final class HoldingProxy implements AutoCloseable {

    /** The largest request it reads: Kafka's own limit of a request ({@code socket.request.max.bytes}). */
    private static final int MAX_REQUEST_BYTES = 100 * 1024 * 1024;

    private final ServerSocket server;
    private final Set<Short> held = ConcurrentHashMap.newKeySet();
    private final AtomicInteger heldRequests = new AtomicInteger();
    private final AtomicInteger forwardedHeld = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object releases = new Object();
    private volatile int upstreamPort;
    private volatile boolean closed;

    private HoldingProxy(ServerSocket server) {
        this.server = server;
    }

    /** A proxy listening on a free loopback port; it accepts connections once {@link #forwardTo} is called. */
    public static HoldingProxy listen() {
        try {
            return new HoldingProxy(new ServerSocket(FreePorts.next(), 50, InetAddress.getLoopbackAddress()));
        } catch (IOException e) {
            throw new IllegalStateException("could not listen on 127.0.0.1 for the holding proxy", e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Forwards every connection to {@code bootstrapServers} ({@code 127.0.0.1:<port>}, a sandbox broker's). */
    public synchronized HoldingProxy forwardTo(String bootstrapServers) {
        if (!bootstrapServers.startsWith("127.0.0.1:")) {
            throw new IllegalArgumentException("the holding proxy forwards to 127.0.0.1 only, not " + bootstrapServers);
        }
        if (upstreamPort == 0) {
            upstreamPort = Integer.parseInt(bootstrapServers.substring("127.0.0.1:".length()));
            daemon("holding-proxy-accept", this::accept).start();
        }
        return this;
    }

    /**
     * A sandbox broker whose clients all reach it through this proxy (its advertised listener), started; the caller
     * closes it.
     */
    public LocalKafka startBroker() {
        LocalKafka kafka = LocalKafka.create(Map.of("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port()));
        forwardTo(kafka.bootstrapServers());
        return kafka.start();
    }

    /** From now on, requests of {@code api} wait (each with what follows it on its connection) until released. */
    public void hold(ApiKeys api) {
        held.add(api.id);
    }

    /** Lets every held request go on, and holds nothing more. */
    public void release() {
        held.clear();
        wakeHeld();
    }

    /** Lets the held requests of {@code api} go on and holds no more of them; other APIs stay held. */
    public void release(ApiKeys api) {
        held.remove(api.id);
        wakeHeld();
    }

    /** The held requests look again at whether their API is still held. */
    private void wakeHeld() {
        synchronized (releases) {
            releases.notifyAll();
        }
    }

    /** How many requests have been held so far. */
    public int heldRequests() {
        return heldRequests.get();
    }

    /** Waits until at least one request has been held. */
    public void awaitHeld(Duration timeout) {
        Await.value("a request held by the proxy", timeout, () -> heldRequests.get() > 0 ? true : null);
    }

    /**
     * Waits until every request held so far has been written to the broker, after {@link #release()} (its answer may
     * not have come yet; a client that gave up on it never reads it).
     */
    public void awaitForwarded(Duration timeout) {
        Await.value("the held requests forwarded to the broker", timeout,
                () -> forwardedHeld.get() == heldRequests.get() ? true : null);
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                throw new IllegalStateException("the holding proxy could not accept a connection", e);
            }
            try {
                Socket broker = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                sockets.add(client);
                sockets.add(broker);
                if (closed) { // closed while this pair was accepted: close() may have missed it
                    closeQuietly(client);
                    closeQuietly(broker);
                    return;
                }
                daemon("holding-proxy-requests", () -> requests(client, broker)).start();
                daemon("holding-proxy-responses", () -> copy(broker, client)).start();
            } catch (IOException brokerDown) { // a broker stopped or gone: its clients see a connection closed
                closeQuietly(client);
            }
        }
    }

    /** Client to broker, request by request, holding those of a held API. */
    private void requests(Socket client, Socket broker) {
        try (DataInputStream in = new DataInputStream(client.getInputStream());
             DataOutputStream out = new DataOutputStream(broker.getOutputStream())) {
            while (true) {
                int size = in.readInt();
                if (size < 2 || size > MAX_REQUEST_BYTES) {
                    throw new IOException("not a Kafka request: size " + size);
                }
                byte[] request = new byte[size];
                in.readFully(request);
                short api = (short) (((request[0] & 0xff) << 8) | (request[1] & 0xff));
                boolean wasHeld = held.contains(api);
                if (wasHeld) {
                    heldRequests.incrementAndGet();
                    synchronized (releases) {
                        while (held.contains(api) && !closed) {
                            releases.wait(100);
                        }
                    }
                    if (closed) { // a request held until the proxy closes is never sent
                        return;
                    }
                }
                out.writeInt(size);
                out.write(request);
                out.flush();
                if (wasHeld) {
                    forwardedHeld.incrementAndGet();
                }
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // the connection ends (a client or the broker closed it, or the proxy closes)
        } finally {
            closeQuietly(client);
            closeQuietly(broker);
        }
    }

    private void copy(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // the other side closed
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static Thread daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // closing
        }
    }

    @Override
    public void close() {
        closed = true;
        release();
        try {
            server.close();
        } catch (IOException e) {
            // closing
        }
        sockets.forEach(this::closeQuietly);
    }
}
