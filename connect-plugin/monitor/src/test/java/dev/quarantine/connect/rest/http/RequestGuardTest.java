package dev.quarantine.connect.rest.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.quarantine.connect.rest.http.RequestGuard.Outcome;
import dev.quarantine.connect.rest.http.RequestGuard.Request;
import dev.quarantine.connect.rest.http.RequestGuard.Verdict;
import dev.quarantine.connect.rest.MonitorConfig;

class RequestGuardTest {

    /** The worker advertises connect.example; the operator allows *.corp.example. */
    private static final KnownHosts HOSTS = KnownHosts.of(List.of("connect.example"), List.of("*.corp.example"));

    /** One row per case of the class comment's table; {@code -} is an absent header. */
    @ParameterizedTest(name = "{0} Origin={2} Sec-Fetch-Site={3} Mode={4} Content-Type={5} Length={6} chunked={7}"
            + " -> {8}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # method | Host              | Origin                    | Sec-Fetch-Site | Sec-Fetch-Mode | Content-Type                     | Content-Length | chunked | outcome
            # clients without Origin and Sec-Fetch-* headers (curl, scripts)
            POST     | 127.0.0.1:8083    | -                         | -              | -              | application/json                 | 2              | false   | SERVE
            POST     | 127.0.0.1:8083    | -                         | -              | -              | application/json; charset=utf-8  | 2              | false   | SERVE
            POST     | 127.0.0.1:8083    | -                         | -              | -              | Application/JSON                 | 2              | false   | SERVE
            POST     | 127.0.0.1:8083    | -                         | -              | -              | application/json                 | 0              | false   | SERVE
            POST     | 127.0.0.1:8083    | -                         | -              | -              | application/json                 | -              | true    | SERVE
            DELETE   | 127.0.0.1:8083    | -                         | -              | -              | -                                | -              | false   | SERVE
            DELETE   | 127.0.0.1:8083    | -                         | -              | -              | -                                | 0              | false   | SERVE
            DELETE   | 127.0.0.1:8083    | -                         | -              | -              | application/json                 | -              | false   | SERVE
            GET      | 127.0.0.1:8083    | -                         | -              | -              | -                                | -              | false   | SERVE
            # 415: what a cross-site form or a no-cors fetch can send, and no type at all
            POST     | 127.0.0.1:8083    | -                         | -              | -              | text/plain                       | 2              | false   | NOT_JSON
            POST     | 127.0.0.1:8083    | -                         | -              | -              | application/x-www-form-urlencoded | 2             | false   | NOT_JSON
            POST     | 127.0.0.1:8083    | -                         | -              | -              | multipart/form-data; boundary=x  | 2              | false   | NOT_JSON
            POST     | 127.0.0.1:8083    | -                         | -              | -              | -                                | 0              | false   | NOT_JSON
            POST     | 127.0.0.1:8083    | -                         | -              | -              | -                                | -              | false   | NOT_JSON
            POST     | 127.0.0.1:8083    | -                         | -              | -              | application/jsonp                | 2              | false   | NOT_JSON
            POST     | 127.0.0.1:8083    | -                         | -              | -              | application/json-patch+json      | 2              | false   | NOT_JSON
            POST     | 127.0.0.1:8083    | -                         | -              | -              | application/json,text/plain      | 2              | false   | NOT_JSON
            PUT      | 127.0.0.1:8083    | -                         | -              | -              | text/plain                       | 2              | false   | NOT_JSON
            DELETE   | 127.0.0.1:8083    | -                         | -              | -              | text/plain                       | -              | false   | NOT_JSON
            DELETE   | 127.0.0.1:8083    | -                         | -              | -              | -                                | 2              | false   | NOT_JSON
            DELETE   | 127.0.0.1:8083    | -                         | -              | -              | -                                | -              | true    | NOT_JSON
            # the worker's own pages: Origin with the Host's host and port, scheme not compared
            POST     | 127.0.0.1:8083    | http://127.0.0.1:8083     | same-origin    | cors           | application/json                 | 2              | false   | SERVE
            POST     | LocalHost:8083    | http://localhost:8083     | same-origin    | cors           | application/json                 | 2              | false   | SERVE
            POST     | connect.example   | https://connect.example   | same-origin    | cors           | application/json                 | 2              | false   | SERVE
            POST     | connect.example   | http://connect.example    | same-origin    | cors           | application/json                 | 2              | false   | SERVE
            POST     | connect.example:443 | https://connect.example | same-origin    | cors           | application/json                 | 2              | false   | SERVE
            POST     | [::1]:8083        | http://[::1]:8083         | same-origin    | cors           | application/json                 | 2              | false   | SERVE
            DELETE   | 127.0.0.1:8083    | http://127.0.0.1:8083     | same-origin    | cors           | -                                | -              | false   | SERVE
            POST     | 127.0.0.1:8083    | -                         | none           | navigate       | application/json                 | 2              | false   | SERVE
            # 403: another origin, whatever it sends
            POST     | 127.0.0.1:8083    | https://evil.example      | -              | -              | application/json                 | 2              | false   | CROSS_SITE
            POST     | 127.0.0.1:8083    | https://evil.example      | cross-site     | no-cors        | text/plain                       | 2              | false   | CROSS_SITE
            POST     | 127.0.0.1:8083    | http://127.0.0.1:3000     | same-site      | cors           | application/json                 | 2              | false   | CROSS_SITE
            POST     | 127.0.0.1:8083    | http://127.0.0.1          | same-site      | cors           | application/json                 | 2              | false   | CROSS_SITE
            POST     | connect.example   | https://connect.example:8443 | same-origin | cors           | application/json                 | 2              | false   | CROSS_SITE
            POST     | 127.0.0.1:8083    | null                      | cross-site     | navigate       | application/x-www-form-urlencoded | 2             | false   | CROSS_SITE
            POST     | 127.0.0.1:8083    | http://127.0.0.1:8083/ui  | same-origin    | cors           | application/json                 | 2              | false   | CROSS_SITE
            POST     | 127.0.0.1:8083    | http://user@127.0.0.1:8083 | same-origin   | cors           | application/json                 | 2              | false   | CROSS_SITE
            POST     | 127.0.0.1:8083    | file://127.0.0.1:8083     | same-origin    | cors           | application/json                 | 2              | false   | CROSS_SITE
            POST     | -                 | http://127.0.0.1:8083     | same-origin    | cors           | application/json                 | 2              | false   | CROSS_SITE
            POST     | 127.0.0.1:8083    | -                         | cross-site     | no-cors        | application/json                 | 2              | false   | CROSS_SITE
            POST     | 127.0.0.1:8083    | -                         | same-site      | cors           | application/json                 | 2              | false   | CROSS_SITE
            POST     | 127.0.0.1:8083    | -                         | cross-site     | navigate       | application/x-www-form-urlencoded | 2             | false   | CROSS_SITE
            POST     | 127.0.0.1:8083    | -                         | something-new  | cors           | application/json                 | 2              | false   | CROSS_SITE
            DELETE   | 127.0.0.1:8083    | https://evil.example      | cross-site     | cors           | -                                | -              | false   | CROSS_SITE
            DELETE   | 127.0.0.1:8083    | -                         | cross-site     | cors           | -                                | -              | false   | CROSS_SITE
            # reads: refused when a page of another origin asks, served when a link is followed
            GET      | 127.0.0.1:8083    | https://evil.example      | cross-site     | cors           | -                                | -              | false   | CROSS_SITE
            GET      | 127.0.0.1:8083    | -                         | cross-site     | no-cors        | -                                | -              | false   | CROSS_SITE
            GET      | 127.0.0.1:8083    | -                         | same-site      | no-cors        | -                                | -              | false   | CROSS_SITE
            GET      | 127.0.0.1:8083    | -                         | cross-site     | navigate       | -                                | -              | false   | SERVE
            GET      | 127.0.0.1:8083    | -                         | same-origin    | cors           | -                                | -              | false   | SERVE
            GET      | 127.0.0.1:8083    | -                         | none           | navigate       | -                                | -              | false   | SERVE
            HEAD     | 127.0.0.1:8083    | -                         | cross-site     | no-cors        | -                                | -              | false   | CROSS_SITE
            # 413: a body announced over the limit, before any of it is read
            POST     | 127.0.0.1:8083    | -                         | -              | -              | application/json                 | 65536          | false   | SERVE
            POST     | 127.0.0.1:8083    | -                         | -              | -              | application/json                 | 65537          | false   | TOO_LARGE
            POST     | 127.0.0.1:8083    | -                         | -              | -              | application/json                 | 10000000000    | false   | TOO_LARGE
            POST     | 127.0.0.1:8083    | -                         | -              | -              | application/json                 | lots           | false   | TOO_LARGE
            GET      | 127.0.0.1:8083    | -                         | -              | -              | -                                | 65537          | false   | TOO_LARGE
            # 403: a browser's request under a name that is not the worker's (DNS rebinding), whatever the origin
            POST     | evil.example:8083 | http://evil.example:8083  | same-origin    | cors           | application/json                 | 2              | false   | UNKNOWN_HOST
            DELETE   | evil.example:8083 | http://evil.example:8083  | -              | -              | -                                | -              | false   | UNKNOWN_HOST
            GET      | evil.example:8083 | -                         | same-origin    | cors           | -                                | -              | false   | UNKNOWN_HOST
            GET      | evil.example:8083 | -                         | none           | navigate       | -                                | -              | false   | UNKNOWN_HOST
            POST     | connect.example.evil.example | http://connect.example.evil.example | same-origin | cors | application/json               | 2              | false   | UNKNOWN_HOST
            # served: an IP address, localhost, an allowed name or domain
            POST     | 10.1.2.3:8083     | http://10.1.2.3:8083      | same-origin    | cors           | application/json                 | 2              | false   | SERVE
            POST     | app.localhost:8083 | http://app.localhost:8083 | same-origin   | cors           | application/json                 | 2              | false   | SERVE
            POST     | dash.corp.example | https://dash.corp.example | same-origin    | cors           | application/json                 | 2              | false   | SERVE
            POST     | evil.example:8083 | -                         | -              | -              | application/json                 | 2              | false   | UNKNOWN_HOST
            # a rebinding page's plain-HTTP same-origin GET: neither Origin nor Sec-Fetch-Site
            GET      | evil.example:8083 | -                         | -              | -              | -                                | -              | false   | UNKNOWN_HOST
            GET      | dash.corp.example | -                         | -              | -              | -                                | -              | false   | SERVE
            GET      | localhost:8083    | -                         | -              | -              | -                                | -              | false   | SERVE
            # the first rule that refuses decides
            POST     | 127.0.0.1:8083    | https://evil.example      | -              | -              | text/plain                       | 99999999       | false   | CROSS_SITE
            POST     | 127.0.0.1:8083    | -                         | -              | -              | text/plain                       | 99999999       | false   | NOT_JSON
            """)
    void decidesEachRowOfTheTable(String method, String host, String origin, String fetchSite, String fetchMode,
                                  String contentType, String contentLength, boolean chunked, Outcome expected) {
        Verdict verdict = RequestGuard.decide(new Request(method, host, origin, fetchSite, fetchMode, contentType,
                contentLength, chunked), HOSTS);

        assertThat(verdict.outcome()).isEqualTo(expected);
        assertThat(verdict.served()).isEqualTo(expected == Outcome.SERVE);
    }

    @Test
    void refusalsSayWhatWasRefusedAndWhatIsAccepted() {
        assertThat(RequestGuard.decide(new Request("post", "127.0.0.1:8083", "https://evil.example", null, null,
                "application/json", "2", false), HOSTS).reason())
                .contains("Origin 'https://evil.example'", "127.0.0.1:8083", "clients that send no Origin");
        assertThat(RequestGuard.decide(new Request("POST", "127.0.0.1:8083", null, "cross-site", "no-cors",
                "application/json", "2", false), HOSTS).reason()).contains("Sec-Fetch-Site: cross-site");
        assertThat(RequestGuard.decide(new Request("POST", "127.0.0.1:8083", null, null, null, "text/plain", "2",
                false), HOSTS).reason()).isEqualTo("POST takes only Content-Type: application/json, was 'text/plain'");
        assertThat(RequestGuard.decide(new Request("POST", "127.0.0.1:8083", null, null, null, null, null, false), HOSTS)
                .reason()).isEqualTo("POST takes only Content-Type: application/json, was none");
        assertThat(RequestGuard.decide(new Request("POST", "127.0.0.1:8083", null, null, null, "application/json",
                "70000", false), HOSTS).reason()).isEqualTo("the request body is longer than 65536 bytes");
        assertThat(RequestGuard.decide(new Request("POST", "evil.example:8083", "http://evil.example:8083",
                "same-origin", "cors", "application/json", "2", false), HOSTS).reason())
                .contains("'evil.example:8083'", "DNS rebinding", MonitorConfig.ALLOWED_HOSTS_CONFIG)
                .doesNotContain("connect.example");
    }
}
