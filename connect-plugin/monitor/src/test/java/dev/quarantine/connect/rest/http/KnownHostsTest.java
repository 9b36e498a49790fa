package dev.quarantine.connect.rest.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KnownHostsTest {

    /** The worker's own names, and the operator's allow-list. */
    private static final KnownHosts HOSTS = KnownHosts.of(List.of("Worker-1.corp.example", "10.0.0.7"),
            List.of("dashboard.example", "*.apps.example", " "));

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # IP addresses and localhost: no DNS answer stands behind them
            127.0.0.1                 | true
            192.168.1.20              | true
            [::1]                     | true
            [2001:db8::1]             | true
            localhost                 | true
            LOCALHOST                 | true
            app.localhost             | true
            # the worker's own names, case and a trailing dot aside
            worker-1.corp.example     | true
            WORKER-1.CORP.EXAMPLE.    | true
            # the allow-list: a name, or every name under a domain (not the domain itself)
            dashboard.example         | true
            a.apps.example            | true
            b.c.apps.example          | true
            apps.example              | false
            xapps.example             | false
            # anything else, also names that merely contain a known one
            evil.example              | false
            worker-1.corp.example.evil.example | false
            1.2.3.4.evil.example      | false
            localhost.evil.example    | false
            ''                        | false
            """)
    void knowsIpAddressesLocalhostTheWorkersNamesAndTheAllowList(String host, boolean known) {
        assertThat(HOSTS.knows(host)).isEqualTo(known);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            connect.example.com       | true
            *.example.com             | true
            worker-1                  | true
            http://connect.example    | false
            connect.example:8083      | false
            *example.com              | false
            *.com                     | false
            *.io.                     | false
            *.nip.io                  | true
            connect.example/ui        | false
            """)
    void anAllowListEntryIsANameOrADomainUnderAStar(String entry, boolean valid) {
        assertThat(KnownHosts.ENTRY.matcher(entry).matches()).isEqualTo(valid);
    }
}
