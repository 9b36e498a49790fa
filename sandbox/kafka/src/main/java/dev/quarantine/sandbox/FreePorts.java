package dev.quarantine.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Picks free TCP ports on the loopback interface, never the same one twice in a JVM: the kernel may hand a port just
 * closed to the next bind, and a broker given one port for two listeners (or two servers given one port) fails to
 * start. A port another process binds between the pick and the use is not prevented.
 */
public final class FreePorts {

    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private FreePorts() {
    }

    /** A port that was free on 127.0.0.1 a moment ago and was not handed out before in this JVM. */
    public static synchronized int next() {
        while (true) {
            int port = bindAndRelease();
            if (HANDED_OUT.add(port)) {
                return port;
            }
        }
    }

    private static int bindAndRelease() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }
}
