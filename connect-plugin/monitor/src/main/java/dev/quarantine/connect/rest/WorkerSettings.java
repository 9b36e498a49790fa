package dev.quarantine.connect.rest;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.state.HostInfo;
import dev.quarantine.connect.rest.http.KnownHosts;

/**
 * What the monitor takes from the worker's own settings: its group (for the Streams application.id), its Kafka
 * connection and client security, its advertised REST host, and the interface of its REST listener (where the
 * monitor's peer listener binds too). {@code self} is where other workers reach this one's monitor: the advertised
 * host and, once the peer listener is up ({@link #withPeerPort}), its port; it is the Streams application.server.
 *
 * @param bindHost the REST listener's host, {@code null} for every interface
 */
public record WorkerSettings(String applicationId, Map<String, Object> clientConfigs, String scheme, HostInfo self,
                      String bindHost) {

    static final String APPLICATION_ID_SUFFIX = "-dead-letter-monitor";

    public static WorkerSettings from(Map<String, ?> worker, MonitorConfig config) {
        String groupId = string(worker, "group.id");
        String applicationId = config.applicationId().orElse(groupId == null ? null : groupId + APPLICATION_ID_SUFFIX);
        if (applicationId == null) {
            throw new ConfigException(MonitorConfig.APPLICATION_ID_CONFIG, "", "the worker has no group.id (is it a"
                    + " standalone worker?): set " + MonitorConfig.APPLICATION_ID_CONFIG);
        }
        Map<String, Object> clients = new HashMap<>();
        if (config.bootstrapServers().isPresent()) {
            clients.put("bootstrap.servers", config.bootstrapServers().get());
        } else {
            worker.forEach((key, value) -> {
                if (key.equals("bootstrap.servers") || key.equals("client.dns.lookup") || key.startsWith("security.")
                        || key.startsWith("sasl.") || key.startsWith("ssl.")) {
                    clients.put(key, value);
                }
            });
        }
        URI advertised = advertised(worker);
        return new WorkerSettings(applicationId, clients, advertised.getScheme(),
                new HostInfo(advertised.getHost(), advertised.getPort()), listenerHost(worker));
    }

    /** These settings with {@code self} at the monitor's peer listener (plain HTTP) on {@code port}. */
    WorkerSettings withPeerPort(int port) {
        return new WorkerSettings(applicationId, clientConfigs, "http", new HostInfo(self.host(), port), bindHost);
    }

    private static String listenerHost(Map<String, ?> worker) {
        String listeners = string(worker, "listeners");
        if (listeners == null || listeners.isBlank()) {
            return null;
        }
        String host = URI.create(listeners.split(",")[0].trim().replace("://:", "://0.0.0.0:")).getHost();
        return host == null || host.equals("0.0.0.0") ? null : host;
    }

    /**
     * The names this worker goes by, for {@link KnownHosts}: its advertised host and the hosts of its
     * {@code listeners} (every one, the admin listeners' too).
     */
    static List<String> ownHostNames(Map<String, ?> worker, WorkerSettings settings) {
        List<String> names = new ArrayList<>();
        names.add(settings.self().host());
        for (String key : List.of("listeners", "admin.listeners")) {
            String listeners = string(worker, key);
            for (String listener : listeners == null ? new String[0] : listeners.split(",")) {
                try {
                    String host = URI.create(listener.trim().replace("://:", "://0.0.0.0:")).getHost();
                    if (host != null && !host.equals("0.0.0.0")) {
                        names.add(host);
                    }
                } catch (IllegalArgumentException e) {
                    // Connect refuses such a listener itself
                }
            }
        }
        return names;
    }

    /** {@code http://host:port} of this worker's REST API (or, after {@link #withPeerPort}, its peer listener). */
    String selfUrl() {
        return url(self);
    }

    public String url(HostInfo host) {
        return scheme + "://" + host.host() + ":" + host.port();
    }

    /** The worker's advertised REST URL, following Connect's rest.advertised.* then listeners. */
    private static URI advertised(Map<String, ?> worker) {
        String listeners = string(worker, "listeners");
        String first = listeners == null || listeners.isBlank() ? "http://:8083" : listeners.split(",")[0].trim();
        URI listener = URI.create(first.replace("://:", "://0.0.0.0:"));
        String scheme = orElse(string(worker, "rest.advertised.listener"), listener.getScheme());
        String host = orElse(string(worker, "rest.advertised.host.name"), listener.getHost());
        if (host == null || host.equals("0.0.0.0")) {
            host = localHostName();
        }
        String port = orElse(string(worker, "rest.advertised.port"), String.valueOf(listener.getPort()));
        int portNumber;
        try {
            portNumber = Integer.parseInt(port.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException("rest.advertised.port", port, "not a port number");
        }
        if (portNumber <= 0) {
            throw new ConfigException("rest.advertised.port", port, "the dead-letter monitor needs the worker's"
                    + " REST port to be known: set rest.advertised.port, or a fixed port in listeners");
        }
        return URI.create(scheme.toLowerCase(java.util.Locale.ROOT) + "://" + host + ":" + portNumber);
    }

    private static String localHostName() {
        try {
            return InetAddress.getLocalHost().getCanonicalHostName();
        } catch (UnknownHostException e) {
            throw new ConfigException("rest.advertised.host.name", null, "this host has no resolvable name: set"
                    + " rest.advertised.host.name for the dead-letter monitor (" + e.getMessage() + ")");
        }
    }

    private static String string(Map<String, ?> worker, String key) {
        Object value = worker.get(key);
        return value == null ? null : value.toString();
    }

    private static String orElse(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value.trim();
    }
}
