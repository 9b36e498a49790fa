package dev.quarantine.connect.rest.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import dev.quarantine.connect.rest.http.Guarded;

/**
 * The dead-letter dashboard, {@code GET /dead-letters/ui}: one static page, its scripts, style sheet and icon, read
 * from the jar at start and served from memory (no CDN, nothing generated per request, no setting or secret in
 * them). The page reads the JSON endpoints from the browser, with the user's own credentials, behind the same REST
 * authentication. Every answer carries {@link #CONTENT_SECURITY_POLICY}: scripts and styles only from these files,
 * requests only to this worker, no inline script, no frames. Public only because JAX-RS calls public methods.
 *
 * <p>A dead-letter topic named {@code ui} is shadowed here: its figures stay in {@code GET /dead-letters}.
 */
@Guarded
@Path("/dead-letters/ui")
public final class DashboardResource {

    /** The page's policy: nothing inline, nothing from elsewhere, no plugins, no frames, no forms posted away. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private record Asset(String type, byte[] bytes) {
    }

    private static final String SCRIPT = "text/javascript; charset=utf-8";

    /**
     * File name (as in the page's links) to its content type; nothing else is served. The page's script is one file a
     * view (overview, topic, replay) besides what they share (common.js) and the page's navigation (dashboard.js).
     */
    private static final Map<String, String> FILES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "common.js", SCRIPT,
            "overview.js", SCRIPT,
            "topic.js", SCRIPT,
            "replay.js", SCRIPT,
            "dashboard.js", SCRIPT,
            "dashboard.css", "text/css; charset=utf-8",
            "icon.svg", "image/svg+xml");

    private final Map<String, Asset> assets = new LinkedHashMap<>();
    private final byte[] features;

    /** @param replayAvailable whether this worker serves {@code /dead-letters/{topic}/replays} (the page's panel) */
    public DashboardResource(boolean replayAvailable) {
        FILES.forEach((name, type) -> assets.put(name, new Asset(type, read(name))));
        this.features = ("{\"replay\":" + replayAvailable + "}").getBytes(StandardCharsets.UTF_8);
    }

    @GET
    public Response page() {
        return answer(assets.get("index.html"));
    }

    /**
     * What this worker offers the page beyond the JSON endpoints: {@code {"replay": true|false}}. The page asks here
     * rather than probing the replay endpoint, so that a worker without it leaves no failed request in the console.
     */
    @GET
    @Path("/features")
    public Response features() {
        return answer(new Asset("application/json", features));
    }

    @GET
    @Path("/{file}")
    public Response file(@PathParam("file") String file) {
        Asset asset = "index.html".equals(file) ? null : assets.get(file);
        if (asset == null) {
            return Response.status(404).type("text/plain; charset=utf-8")
                    .entity("no such dashboard file; the dashboard is GET /dead-letters/ui").build();
        }
        return answer(asset);
    }

    private static Response answer(Asset asset) {
        return Response.ok(asset.bytes(), asset.type())
                .header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer")
                .build(); // Cache-Control: RequestGuardFilter, as for every answer under /dead-letters
    }

    /** Reads a file of the page, which the jar holds next to this class (same package). */
    private static byte[] read(String name) {
        try (InputStream in = DashboardResource.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the monitor jar lacks dashboard/" + name + " (a broken build)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read dashboard/" + name + " from the monitor jar", e);
        }
    }
}
