package dev.quarantine.connect.rest.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import dev.quarantine.connect.rest.MonitorConfig;

/**
 * Which requests the monitor's endpoints ({@code /dead-letters/**}) serve, decided from the request line and headers
 * only, before any of the body is read. A page on another site must not be able to start, cancel or read anything
 * with the credentials a browser sends along (the dashboard makes browsers cache Basic credentials), and no body may
 * take more memory than {@link #MAX_BODY_BYTES}. The first rule that refuses decides:
 *
 * <pre>
 * rule | methods              | refused when                                                        | answer
 * -----+----------------------+---------------------------------------------------------------------+-------
 *  1   | all                  | an Origin header that is not this worker's own (see below),         | 403
 *      |                      | {@code null} included                                               |
 *  2   | POST, PUT, PATCH,    | Sec-Fetch-Site other than same-origin or none (cross-site,          | 403
 *      | DELETE, any other    | same-site: another origin of the same site)                         |
 *  3   | GET, HEAD, OPTIONS   | Sec-Fetch-Site other than same-origin or none, unless               | 403
 *      |                      | Sec-Fetch-Mode is navigate (following a link shows the answer to    |
 *      |                      | the user, not to the page that links)                               |
 *  3b  | all                  | a Host that is not one of this worker's {@link KnownHosts} (DNS     | 403
 *      |                      | rebinding: a page whose own name resolves to the worker shares its  |
 *      |                      | origin, so rules 1-3 let it through; over plain HTTP a browser's    |
 *      |                      | same-origin GET carries neither Origin nor Sec-Fetch-Site, so every |
 *      |                      | request is checked, a client that is no browser too)                |
 *  4   | POST, PUT, PATCH     | Content-Type other than application/json (parameters such as        | 415
 *      |                      | charset allowed), also when absent and when the body is empty       |
 *  5   | DELETE, any other    | a Content-Type other than application/json; none is fine without    | 415
 *      | changing method      | a body                                                              |
 *  6   | all                  | Content-Length over {@link #MAX_BODY_BYTES}                         | 413
 * </pre>
 * A request without Origin and Sec-Fetch-Site headers (curl, scripts) passes rules 1-3: only browsers send them, and
 * every browser in use sends Origin on a POST or DELETE (same-origin ones too). Sec-Fetch-Site is not sent to an
 * origin that is neither HTTPS nor localhost, and a same-origin GET has no Origin, so rule 3b checks the Host of
 * every request: a script reaching the worker under a name of its own (a load balancer's) needs that name in
 * {@link MonitorConfig#ALLOWED_HOSTS_CONFIG}. A body without Content-Length
 * (chunked) is cut at the limit while it is read ({@code BoundedEntity}).
 *
 * <p>This worker's own origin: the Origin's host and port (the port defaulted by its scheme) equal those of the Host
 * header the request came with (a Host without a port: the default port of the Origin's scheme). A browser always
 * sends the host and port it connects to as Host, and a page cannot change it, so the page and the endpoint then
 * share host and port: the same server. The scheme is not compared, so a proxy terminating TLS in front of the worker
 * works as long as it passes the Host header on.
 */
final class RequestGuard {

    /** The largest request body read (a replay request is a few hundred bytes). */
    static final int MAX_BODY_BYTES = 64 * 1024;

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");
    private static final Set<String> BODY_METHODS = Set.of("POST", "PUT", "PATCH");
    private static final String JSON = "application/json";

    /** How a request is answered: served, or refused with a status. */
    enum Outcome {
        SERVE(200, null),
        CROSS_SITE(403, "FORBIDDEN"),
        UNKNOWN_HOST(403, "FORBIDDEN"),
        TOO_LARGE(413, "TOO_LARGE"),
        NOT_JSON(415, "UNSUPPORTED_MEDIA_TYPE");

        final int status;
        final String category;

        Outcome(int status, String category) {
            this.status = status;
            this.category = category;
        }
    }

    /** The decision: {@link Outcome#SERVE}, or a refusal with the words of its answer. */
    record Verdict(Outcome outcome, String reason) {

        static final Verdict SERVE = new Verdict(Outcome.SERVE, "");

        boolean served() {
            return outcome == Outcome.SERVE;
        }
    }

    /**
     * What the decision reads of a request: its method and headers as they came (null when absent).
     *
     * @param chunked whether a Transfer-Encoding header says a body follows without a Content-Length
     */
    record Request(String method, String host, String origin, String fetchSite, String fetchMode,
                   String contentType, String contentLength, boolean chunked) {

        Request {
            method = method.toUpperCase(Locale.ROOT);
        }

        OptionalLong length() {
            if (contentLength == null || contentLength.isBlank()) {
                return OptionalLong.empty();
            }
            try {
                return OptionalLong.of(Long.parseLong(contentLength.trim()));
            } catch (NumberFormatException e) {
                return OptionalLong.of(Long.MAX_VALUE); // never read: refused as too large
            }
        }

        boolean hasBody() {
            return chunked || length().orElse(0) > 0;
        }
    }

    private RequestGuard() {
    }

    static Verdict decide(Request request, KnownHosts hosts) {
        if (request.origin() != null && !sameOrigin(request.origin(), request.host())) {
            return new Verdict(Outcome.CROSS_SITE, "a request from a page of another origin (Origin '"
                    + request.origin() + "', this worker is '" + request.host() + "'): the dead-letter endpoints"
                    + " answer only the worker's own pages and clients that send no Origin");
        }
        if (request.fetchSite() != null && !sameOriginFetch(request)) {
            return new Verdict(Outcome.CROSS_SITE, "a request from a page of another origin (Sec-Fetch-Site: "
                    + request.fetchSite() + "): the dead-letter endpoints answer only the worker's own pages and"
                    + " clients that send no Sec-Fetch-Site");
        }
        if (!knownHost(request.host(), hosts)) {
            return new Verdict(Outcome.UNKNOWN_HOST, "a request to '" + request.host() + "', which is not a name of"
                    + " this worker: a page whose name resolves to the worker (DNS rebinding) is refused; if clients"
                    + " reach the worker under that name, add it to " + MonitorConfig.ALLOWED_HOSTS_CONFIG);
        }
        if (!SAFE_METHODS.contains(request.method()) && !jsonOrNothing(request)) {
            return new Verdict(Outcome.NOT_JSON, request.method() + " takes only Content-Type: application/json,"
                    + " was " + (request.contentType() == null ? "none" : "'" + request.contentType() + "'"));
        }
        if (request.length().orElse(0) > MAX_BODY_BYTES) {
            return new Verdict(Outcome.TOO_LARGE, tooLarge());
        }
        return Verdict.SERVE;
    }

    /** The words of a 413, also for a body without Content-Length cut while it is read. */
    static String tooLarge() {
        return "the request body is longer than " + MAX_BODY_BYTES + " bytes";
    }

    private static boolean sameOriginFetch(Request request) {
        String site = request.fetchSite().trim().toLowerCase(Locale.ROOT);
        if (site.equals("same-origin") || site.equals("none")) {
            return true;
        }
        return SAFE_METHODS.contains(request.method()) && request.fetchMode() != null
                && request.fetchMode().trim().equalsIgnoreCase("navigate");
    }

    private static boolean jsonOrNothing(Request request) {
        if (request.contentType() == null || request.contentType().isBlank()) {
            return !BODY_METHODS.contains(request.method()) && !request.hasBody();
        }
        String type = request.contentType().split(";", 2)[0].trim();
        return type.equalsIgnoreCase(JSON);
    }

    private static boolean knownHost(String host, KnownHosts hosts) {
        return hostAuthority(host, 80).map(authority -> hosts.knows(authority.host())).orElse(false);
    }

    private static boolean sameOrigin(String origin, String host) {
        Optional<Authority> page = originAuthority(origin);
        Optional<Authority> self = page.flatMap(p -> hostAuthority(host, p.defaultPort()));
        return page.isPresent() && self.isPresent() && page.get().host().equals(self.get().host())
                && page.get().port() == self.get().port();
    }

    /** A host and port; {@code defaultPort} that of the Origin's scheme (80 or 443). */
    private record Authority(String host, int port, int defaultPort) {
    }

    /** {@code scheme://host[:port]} of an http(s) Origin, the port defaulted by the scheme. */
    private static Optional<Authority> originAuthority(String origin) {
        try {
            URI uri = new URI(origin.trim());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            boolean bare = uri.getRawPath() == null || uri.getRawPath().isEmpty();
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || !bare
                    || uri.getRawQuery() != null || uri.getRawUserInfo() != null) {
                return Optional.empty();
            }
            int defaultPort = scheme.equals("https") ? 443 : 80;
            int port = uri.getPort() != -1 ? uri.getPort() : defaultPort;
            return Optional.of(new Authority(uri.getHost().toLowerCase(Locale.ROOT), port, defaultPort));
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    /**
     * The Host header's host and port; without a port, {@code defaultPort}: the default port of the Origin's scheme
     * (a Host without a port came to the default port of the scheme the browser used).
     */
    private static Optional<Authority> hostAuthority(String host, int defaultPort) {
        if (host == null || host.isBlank()) {
            return Optional.empty();
        }
        try {
            URI uri = new URI("http://" + host.trim());
            if (uri.getHost() == null || (uri.getRawPath() != null && !uri.getRawPath().isEmpty())
                    || uri.getRawUserInfo() != null || uri.getRawQuery() != null) {
                return Optional.empty();
            }
            int port = uri.getPort() != -1 ? uri.getPort() : defaultPort;
            return Optional.of(new Authority(uri.getHost().toLowerCase(Locale.ROOT), port, defaultPort));
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }
}
