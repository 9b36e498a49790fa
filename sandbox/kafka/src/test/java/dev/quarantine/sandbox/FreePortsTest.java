package dev.quarantine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class FreePortsTest {

    /**
     * The kernel hands ports out at random from its ephemeral range, so among 2,000 picks of a port just closed some
     * repeat (a broker once got one port for both of its listeners); handed out, none repeats.
     */
    @Test
    void neverHandsOutOnePortTwice() {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            ports.add(FreePorts.next());
        }

        assertThat(ports).doesNotHaveDuplicates().allMatch(port -> port > 0 && port < 65_536);
    }

    /**
     * A port in the ephemeral range, picked and released, can become the local port of any client connection before
     * the server binds it ("Address already in use" at a broker's start in CI): every pick is below that range, where
     * the kernel never picks a client's port.
     */
    @Test
    void picksBelowTheKernelsEphemeralRange() {
        int ephemeral = FreePorts.ephemeralStart();

        assertThat(ephemeral).isGreaterThan(10_000);
        for (int i = 0; i < 200; i++) {
            assertThat(FreePorts.next()).isBetween(10_000, ephemeral - 1);
        }
    }
}
