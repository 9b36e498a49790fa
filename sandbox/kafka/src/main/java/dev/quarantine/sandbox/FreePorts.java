package dev.quarantine.sandbox;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks free TCP ports on the loopback interface, never the same one twice in a JVM: the kernel may hand a port just
 * closed to the next bind, and a broker given one port for two listeners (or two servers given one port) fails to
 * start. Ports are picked at random below the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}), never
 * in it: a port picked there and released could be taken, before the server binds it, as the local port of any
 * client connection on the machine (a broker then failed with "Address already in use" in a CI run). Another process
 * binding the same port between the pick and the use is not prevented, only made unlikely (one in about 20,000).
 */
public final class FreePorts {

    private static final Set<Integer> HANDED_OUT = new HashSet<>();
    private static final int LOWEST = 10_000;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Linux's default start of the ephemeral range, where the file cannot be read. */
    private static final int EPHEMERAL_START = 32_768;

    private FreePorts() {
    }

    /** A port that was free on 127.0.0.1 a moment ago, below the ephemeral range, not handed out before here. */
    public static synchronized int next() {
        int below = ephemeralStart();
        for (int attempt = 0; attempt < 1_000; attempt++) {
            int port = LOWEST + ThreadLocalRandom.current().nextInt(below - LOWEST);
            if (!HANDED_OUT.contains(port) && free(port)) {
                HANDED_OUT.add(port);
                return port;
            }
        }
        throw new IllegalStateException("no free port on 127.0.0.1 between " + LOWEST + " and " + below);
    }

    /**
     * Where the kernel's ephemeral ports begin; Linux's default where the file cannot be read or leaves too little
     * room above {@link #LOWEST}. Read by lines: {@code Files.readString} of a /proc file returns its first byte only.
     */
    static int ephemeralStart() {
        try {
            int start = Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0]);
            return start > LOWEST + 1_000 ? start : EPHEMERAL_START;
        } catch (IOException | RuntimeException e) {
            return EPHEMERAL_START;
        }
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
