package dev.quarantine.connect.rest.peers;

import java.util.Optional;
import java.util.Set;

/**
 * Where the peer listener binds: the address the operator set, else the interface of the worker's REST listener, else
 * (when that listens on every interface) the worker's advertised REST host, the one other workers are told. Every
 * interface only when the operator says so ({@code 0.0.0.0}).
 */
public final class PeerBinding {

    private static final Set<String> EVERY_INTERFACE = Set.of("0.0.0.0", "::", "[::]");

    private PeerBinding() {
    }

    /**
     * @param configured     {@code quarantine.monitor.peer.bind.address}, when set
     * @param listenerHost   the host of the worker's first REST listener, {@code null} when it has none
     * @param advertisedHost the worker's advertised REST host
     * @return the host to bind, {@code null} for every interface
     */
    public static String host(Optional<String> configured, String listenerHost, String advertisedHost) {
        if (configured.isPresent()) {
            return EVERY_INTERFACE.contains(configured.get()) ? null : configured.get();
        }
        if (listenerHost != null && !listenerHost.isBlank() && !EVERY_INTERFACE.contains(listenerHost)) {
            return listenerHost;
        }
        return advertisedHost;
    }
}
