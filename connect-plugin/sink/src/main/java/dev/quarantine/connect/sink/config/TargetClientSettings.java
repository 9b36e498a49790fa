package dev.quarantine.connect.sink.config;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The {@code target.producer.*} and {@code target.admin.*} values the Kafka client would refuse, checked against the
 * client's own ConfigDef and reported on the setting the user wrote (not the client's name for it), before any
 * client is built. Names the client does not define are left alone: {@code txn.send.*} are TxnSendConfig's, and
 * Kafka clients ignore unknown names.
 */
final class TargetClientSettings {

    private TargetClientSettings() {
    }

    /** Problems of the target clients' settings in {@code props}, by setting. */
    static Map<String, List<String>> problems(Map<String, ?> props) {
        Map<String, List<String>> problems = new LinkedHashMap<>();
        check(props, TransactionalSinkConfig.TARGET_PRODUCER_PREFIX, "producer", ProducerConfig.configDef(), problems);
        check(props, TransactionalSinkConfig.TARGET_ADMIN_PREFIX, "admin client", AdminClientConfig.configDef(),
                problems);
        return problems;
    }

    private static void check(Map<String, ?> props, String prefix, String client, ConfigDef def,
                              Map<String, List<String>> problems) {
        Map<String, String> set = new HashMap<>();
        props.forEach((key, value) -> {
            String name = key.substring(Math.min(prefix.length(), key.length()));
            if (key.startsWith(prefix) && def.configKeys().containsKey(name) && value != null) {
                set.put(name, String.valueOf(value));
            }
        });
        for (ConfigValue value : def.validateAll(set).values()) {
            // the first message is the cause; a value that does not parse is also reported as null after it
            if (set.containsKey(value.name()) && !value.errorMessages().isEmpty()) {
                ConfigRules.add(problems, prefix + value.name(), "is refused by the target " + client + ": "
                        + value.errorMessages().get(0));
            }
        }
    }
}
