package dev.quarantine.connect.rest.replays;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.config.types.Password;

/**
 * Which of the worker's client settings a replay connector's config may hold. Anyone allowed to read connector
 * configs sees them ({@code GET /connectors/{id}/config} shows every value), so a setting is copied only when a
 * client's {@link ConfigDef} (producer, consumer, admin, with their SASL and SSL settings) defines it with a type
 * other than {@link ConfigDef.Type#PASSWORD}: every PASSWORD setting, and every setting no client defines (its type
 * unknown), is withheld. The decision is by type, never by name.
 *
 * <table>
 *   <caption>rows</caption>
 *   <tr><th>the worker's setting</th><th>in the connector config</th></tr>
 *   <tr><td>defined, not PASSWORD (bootstrap.servers, security.protocol, sasl.mechanism)</td><td>copied</td></tr>
 *   <tr><td>PASSWORD (sasl.jaas.config, ssl.truststore.password, ssl.truststore.certificates)</td><td>withheld</td></tr>
 *   <tr><td>defined by no client</td><td>withheld</td></tr>
 * </table>
 *
 * A withheld setting that the worker's {@code security.protocol} uses (sasl.* under SASL_*, ssl.* under SSL or
 * SASL_SSL) means the replay could not connect: {@link #needed()} names it, and the replay is refused.
 */
record ReplayClientSettings(Map<String, String> copied, Set<String> withheld) {

    private static final ConfigDef CLIENTS = clients();

    /** The worker's {@code clientConfigs} split into what a connector config may hold and what it never does. */
    static ReplayClientSettings of(Map<String, Object> clientConfigs) {
        Map<String, String> copied = new LinkedHashMap<>();
        Set<String> withheld = new TreeSet<>();
        clientConfigs.forEach((key, value) -> {
            ConfigDef.ConfigKey defined = CLIENTS.configKeys().get(key);
            if (defined == null || defined.type == ConfigDef.Type.PASSWORD || value instanceof Password) {
                withheld.add(key);
            } else if (value != null) {
                copied.put(key, value.toString());
            }
        });
        return new ReplayClientSettings(Map.copyOf(copied), Set.copyOf(withheld));
    }

    /** The withheld settings the worker's security.protocol uses; empty when the replay can connect without them. */
    Set<String> needed() {
        String protocol = Optional.ofNullable(copied.get(AdminClientConfig.SECURITY_PROTOCOL_CONFIG))
                .orElse("PLAINTEXT").trim().toUpperCase(Locale.ROOT);
        boolean sasl = protocol.startsWith("SASL_");
        boolean ssl = protocol.endsWith("SSL");
        Set<String> needed = new TreeSet<>();
        for (String key : withheld) {
            if ((sasl && key.startsWith("sasl.")) || (ssl && key.startsWith("ssl."))) {
                needed.add(key);
            }
        }
        return needed;
    }

    private static ConfigDef clients() {
        ConfigDef all = new ConfigDef();
        for (ConfigDef def : new ConfigDef[] {ProducerConfig.configDef(), ConsumerConfig.configDef(),
                AdminClientConfig.configDef(), sslAndSasl()}) {
            def.configKeys().values().stream().filter(key -> !all.configKeys().containsKey(key.name))
                    .forEach(all::define);
        }
        return all;
    }

    private static ConfigDef sslAndSasl() {
        ConfigDef def = new ConfigDef();
        SslConfigs.addClientSslSupport(def);
        SaslConfigs.addClientSaslSupport(def);
        return def;
    }
}
