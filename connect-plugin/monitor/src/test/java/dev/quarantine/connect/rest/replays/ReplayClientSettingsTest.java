package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;

class ReplayClientSettingsTest {

    @Test
    void copiesSettingsThatClientsDefineWithATypeOtherThanPassword() {
        ReplayClientSettings settings = ReplayClientSettings.of(Map.of("bootstrap.servers", "127.0.0.1:9092",
                "security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN", "client.dns.lookup",
                "use_all_dns_ips", "sasl.oauthbearer.token.endpoint.url", "https://idp.example/token"));

        assertThat(settings.copied()).containsOnlyKeys("bootstrap.servers", "security.protocol", "sasl.mechanism",
                "client.dns.lookup", "sasl.oauthbearer.token.endpoint.url");
        assertThat(settings.withheld()).isEmpty();
    }

    @Test
    void withholdsEveryPasswordSettingWhateverItsName() {
        ReplayClientSettings settings = ReplayClientSettings.of(Map.of("bootstrap.servers", "127.0.0.1:9092",
                "sasl.jaas.config", "x required;", "ssl.truststore.password", "p",
                "ssl.truststore.certificates", "-----BEGIN CERTIFICATE-----", "ssl.keystore.certificate.chain", "c",
                "ssl.keystore.key", "k", "ssl.key.password", "p"));

        assertThat(settings.copied()).containsOnlyKeys("bootstrap.servers");
        assertThat(settings.withheld()).containsExactlyInAnyOrder("sasl.jaas.config", "ssl.truststore.password",
                "ssl.truststore.certificates", "ssl.keystore.certificate.chain", "ssl.keystore.key",
                "ssl.key.password");
    }

    @Test
    void withholdsASettingNoClientDefinesAndAPasswordValue() {
        Map<String, Object> worker = new HashMap<>(Map.of("bootstrap.servers", "127.0.0.1:9092",
                "sasl.custom.thing", "x"));
        worker.put("ssl.protocol", new Password("TLSv1.3"));

        ReplayClientSettings settings = ReplayClientSettings.of(worker);

        assertThat(settings.copied()).containsOnlyKeys("bootstrap.servers");
        assertThat(settings.withheld()).containsExactlyInAnyOrder("sasl.custom.thing", "ssl.protocol");
    }

    @Test
    void aWithheldSettingIsNeededOnlyWhenTheSecurityProtocolUsesIt() {
        Map<String, Object> secrets = Map.of("sasl.jaas.config", "x required;", "ssl.truststore.password", "p");

        assertThat(needed(secrets, null)).isEmpty();
        assertThat(needed(secrets, "PLAINTEXT")).isEmpty();
        assertThat(needed(secrets, "SSL")).containsExactly("ssl.truststore.password");
        assertThat(needed(secrets, "SASL_PLAINTEXT")).containsExactly("sasl.jaas.config");
        assertThat(needed(secrets, "sasl_ssl")).containsExactly("sasl.jaas.config", "ssl.truststore.password");
    }

    private static java.util.Set<String> needed(Map<String, Object> secrets, String protocol) {
        Map<String, Object> worker = new HashMap<>(secrets);
        if (protocol != null) {
            worker.put("security.protocol", protocol);
        }
        return ReplayClientSettings.of(worker).needed();
    }
}
