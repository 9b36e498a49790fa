package dev.quarantine.connect.rest.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The host names under which a browser may reach this worker's monitor (the host of the {@code Host} header): the
 * defence against DNS rebinding, where a page of an attacker's domain has that domain resolve to the worker and so
 * shares an origin with it. An IP address, {@code localhost} (and {@code *.localhost}) are always known: no DNS
 * answer stands behind them. So are the worker's own names: its advertised host, its listeners' hosts and this
 * machine's host names. Anything else must be in {@code quarantine.monitor.allowed.hosts}: a name, or
 * {@code *.domain} for the names under that domain.
 */
public final class KnownHosts {

    /**
     * A host name, or {@code *.} and a domain of at least two labels: what an allow-list entry may be ({@code *.com}
     * would let every name an attacker can register rebind to the worker).
     */
    public static final Pattern ENTRY = Pattern.compile("(\\*\\.[A-Za-z0-9][A-Za-z0-9-]{0,62}(\\.[A-Za-z0-9-]{1,63})+"
            + "|[A-Za-z0-9][A-Za-z0-9-]{0,62}(\\.[A-Za-z0-9-]{1,63})*)\\.?");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final Set<String> names = new LinkedHashSet<>();
    private final List<String> domains = new ArrayList<>();

    private KnownHosts(Collection<String> own, Collection<String> allowed) {
        own.stream().filter(n -> n != null && !n.isBlank()).map(KnownHosts::normal).forEach(names::add);
        for (String entry : allowed) {
            String name = normal(entry);
            if (name.startsWith("*.")) {
                domains.add(name.substring(1));
            } else if (!name.isEmpty()) {
                names.add(name);
            }
        }
    }

    /** The worker's {@code own} names and the operator's {@code allowed} entries. */
    static KnownHosts of(Collection<String> own, Collection<String> allowed) {
        return new KnownHosts(own, allowed);
    }

    /** Those of {@link #of}, plus this machine's host names (when it has any). */
    public static KnownHosts withThisMachine(Collection<String> own, Collection<String> allowed) {
        List<String> all = new ArrayList<>(own);
        try {
            InetAddress local = InetAddress.getLocalHost();
            all.add(local.getHostName());
            all.add(local.getCanonicalHostName());
        } catch (UnknownHostException e) {
            // no name of its own: its advertised and listener names still count
        }
        return new KnownHosts(all, allowed);
    }

    /** Whether {@code host} (the host of a Host header, IPv6 in brackets, without port) is one of these. */
    boolean knows(String host) {
        if (host == null || host.isBlank()) {
            return false;
        }
        String name = normal(host);
        if (IPV4.matcher(name).matches() || name.startsWith("[") || name.equals("localhost")
                || name.endsWith(".localhost")) {
            return true;
        }
        return names.contains(name) || domains.stream().anyMatch(domain -> name.endsWith(domain)
                && name.length() > domain.length());
    }

    /** Lower case, without the trailing dot of a fully qualified name. */
    private static String normal(String host) {
        String name = host.trim().toLowerCase(Locale.ROOT);
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    @Override
    public String toString() {
        return "IP addresses, localhost, " + names + (domains.isEmpty() ? "" : " and names under " + domains);
    }
}
