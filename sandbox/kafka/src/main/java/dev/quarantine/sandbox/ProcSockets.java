package dev.quarantine.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets one process holds, read from outside it on Linux: the socket inodes among its open files
 * ({@code /proc/<pid>/fd}) matched with the rows of {@code /proc/<pid>/net/tcp} and {@code tcp6}. Used to count a
 * worker's connections to the broker (the benchmarks' worker footprint) and to make sure the server answering on a
 * port is the process a test or benchmark started ({@link #requireOwnListener}, {@link LocalConnect}'s readiness
 * check): a free port picked before a child JVM binds it can be taken by another process meanwhile, and a readiness
 * check that only asks "does something answer 200 here" would then test (and load) someone else's server.
 */
public final class ProcSockets {

    /** {@code st} of a listening socket in {@code /proc/net/tcp} (include/net/tcp_states.h: TCP_LISTEN). */
    static final String LISTEN = "0A";
    /** {@code st} of an established connection (TCP_ESTABLISHED). */
    static final String ESTABLISHED = "01";
    /** 127.0.0.1 as {@code /proc/net/tcp} prints it: the address in the host's (little-endian) byte order. */
    static final String LOOPBACK = "0100007F";
    /** 127.0.0.1 on an IPv6 socket ({@code ::ffff:127.0.0.1}, how a dual-stack JVM binds it), in {@code tcp6}. */
    static final String LOOPBACK_MAPPED = "0000000000000000FFFF00000100007F";

    private ProcSockets() {
    }

    /** One row of {@code /proc/net/tcp}: the fields the benchmarks read. Addresses are hex as the kernel prints them. */
    public record Row(String localAddress, int localPort, String remoteAddress, int remotePort, String state,
                      String inode) {

        /** The row of one line of the table; empty for the header line or a line of another shape. */
        public static Optional<Row> parse(String line) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length < 10 || !fields[0].endsWith(":") || fields[1].indexOf(':') < 0) {
                return Optional.empty();
            }
            String[] local = fields[1].split(":");
            String[] remote = fields[2].split(":");
            return Optional.of(new Row(local[0], Integer.parseInt(local[1], 16), remote[0],
                    Integer.parseInt(remote[1], 16), fields[3], fields[9]));
        }
    }

    /** The sockets {@code pid} holds: rows of its network namespace's tables whose inode is one of its open files. */
    public static List<Row> of(long pid) {
        Set<String> inodes = socketInodes(pid);
        List<Row> held = new ArrayList<>();
        for (String table : List.of("tcp", "tcp6")) {
            Path file = Path.of("/proc", String.valueOf(pid), "net", table);
            if (!Files.exists(file)) {
                continue;
            }
            try (Stream<String> lines = Files.lines(file)) {
                lines.map(Row::parse).flatMap(Optional::stream).filter(row -> inodes.contains(row.inode()))
                        .forEach(held::add);
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + file, e);
            }
        }
        return held;
    }

    /** Established connections among {@code sockets} whose remote port is {@code port}. */
    public static int connectionsTo(List<Row> sockets, int port) {
        return (int) sockets.stream().filter(row -> ESTABLISHED.equals(row.state()) && row.remotePort() == port)
                .count();
    }

    /** Whether {@code sockets} hold a listener on 127.0.0.1:{@code port}. */
    public static boolean listensOnLoopback(List<Row> sockets, int port) {
        return sockets.stream().anyMatch(row -> LISTEN.equals(row.state())
                && (LOOPBACK.equals(row.localAddress()) || LOOPBACK_MAPPED.equals(row.localAddress()))
                && row.localPort() == port);
    }

    /**
     * Fails unless the process {@code pid} itself listens on 127.0.0.1:{@code port}, so the server that answered a
     * readiness check there is the one started (no other process can listen on that address and port while it does).
     */
    public static void requireOwnListener(String what, long pid, int port) {
        List<Row> held = of(pid);
        if (!listensOnLoopback(held, port)) {
            throw new IllegalStateException(what + " (pid " + pid + ") does not listen on 127.0.0.1:" + port
                    + ", though a server answered there: another process took the port; not measuring it (its"
                    + " listeners: " + held.stream().filter(row -> LISTEN.equals(row.state()))
                    .map(row -> row.localAddress() + ":" + row.localPort()).toList() + ")");
        }
    }


    private static Set<String> socketInodes(long pid) {
        Set<String> inodes = new HashSet<>();
        Path fdDir = Path.of("/proc", String.valueOf(pid), "fd");
        try (Stream<Path> fds = Files.list(fdDir)) {
            fds.forEach(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // the file was closed between the listing and the read: not a socket it holds
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("could not list " + fdDir, e);
        }
        return inodes;
    }
}
