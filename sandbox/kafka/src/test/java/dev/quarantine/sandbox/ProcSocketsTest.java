package dev.quarantine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class ProcSocketsTest {

    private static final String HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt"
            + "   uid  timeout inode";

    private static String row(String local, String remote, String state, String inode) {
        return "   0: " + local + " " + remote + " " + state + " 00000000:00000000 00:00000000 00000000     0        0 "
                + inode + " 1 0000000000000000 100 0 0 10 0";
    }

    private static ProcSockets.Row parsed(String line) {
        return ProcSockets.Row.parse(line).orElseThrow();
    }

    @Test
    void readsPortsStateAndInodeOfARowAndSkipsTheHeader() {
        assertThat(ProcSockets.Row.parse(HEADER)).isEmpty();
        assertThat(parsed(row("0100007F:8765", "00000000:0000", "0A", "502823")))
                .isEqualTo(new ProcSockets.Row("0100007F", 0x8765, "00000000", 0, "0A", "502823"));
        assertThat(parsed(row("0000000000000000FFFF00000100007F:1F90", "0000000000000000FFFF00000100007F:A9AD", "01",
                "77"))).isEqualTo(new ProcSockets.Row("0000000000000000FFFF00000100007F", 8080,
                "0000000000000000FFFF00000100007F", 0xA9AD, "01", "77"));
    }

    @Test
    void aListenerCountsOnlyWhenItListensOnLoopbackOnThatPort() {
        assertThat(ProcSockets.listensOnLoopback(List.of(parsed(row("0100007F:1F90", "00000000:0000", "0A", "1"))),
                8080)).as("127.0.0.1:8080 listening").isTrue();
        assertThat(ProcSockets.listensOnLoopback(List.of(parsed(row(
                "0000000000000000FFFF00000100007F:1F90", "00000000000000000000000000000000:0000", "0A", "1"))), 8080))
                .as("::ffff:127.0.0.1:8080 listening (a dual-stack JVM)").isTrue();
        assertThat(ProcSockets.listensOnLoopback(List.of(parsed(row("0100007F:1F91", "00000000:0000", "0A", "1"))),
                8080)).as("another port").isFalse();
        assertThat(ProcSockets.listensOnLoopback(List.of(parsed(row("00000000:1F90", "00000000:0000", "0A", "1"))),
                8080)).as("every interface, not loopback only").isFalse();
        assertThat(ProcSockets.listensOnLoopback(List.of(parsed(row("0100007F:1F90", "0100007F:A9AD", "01", "1"))),
                8080)).as("a connection from that port, not a listener").isFalse();
        assertThat(ProcSockets.listensOnLoopback(List.of(), 8080)).as("no sockets").isFalse();
    }

    @Test
    void countsEstablishedConnectionsToOnePort() {
        List<ProcSockets.Row> rows = List.of(
                parsed(row("0100007F:C001", "0100007F:2382", "01", "1")),
                parsed(row("0100007F:C002", "0100007F:2382", "01", "2")),
                parsed(row("0100007F:C003", "0100007F:2382", "06", "3")),
                parsed(row("0100007F:C004", "0100007F:2383", "01", "4")),
                parsed(row("0100007F:2382", "00000000:0000", "0A", "5")));
        assertThat(ProcSockets.connectionsTo(rows, 0x2382)).isEqualTo(2);
    }

    @Test
    void acceptsAListenerOfTheProcessItselfAndRefusesOneHeldByAnotherProcess() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = listener.getLocalPort();
            assertThatCode(() -> ProcSockets.requireOwnListener("this JVM", ProcessHandle.current().pid(), port))
                    .doesNotThrowAnyException();

            Process other = new ProcessBuilder("sleep", "60").start();
            try {
                assertThatThrownBy(() -> ProcSockets.requireOwnListener("the sleeper", other.pid(), port))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("the sleeper (pid " + other.pid() + ") does not listen on 127.0.0.1:"
                                + port)
                        .hasMessageContaining("another process took the port");
            } finally {
                other.destroy();
                other.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
